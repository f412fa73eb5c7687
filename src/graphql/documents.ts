/**
 * Fixed GraphQL documents: the operations the REST routes and MCP tools run (src/rest/documents/).
 *
 * A REST route or an MCP tool is one named GraphQL document plus a mapping of its answer to the
 * route's JSON. The document is parsed, validated against the schema and compiled by graphql-jit
 * ONCE, when the server starts (`DocumentRunner.compile`, which throws naming the document and its
 * validation errors); each request then runs the compiled query with the request's context through
 * the same gate as POST /graphql's compiled executor (src/graphql/executor.ts): `measureOperation`
 * (NUL, depth, aliases, string lengths, complexity), the resolvers, the rule table
 * (src/graphql/rules.ts, applied inside the schema), the loaders and the error vocabulary.
 *
 * Rate limits: the transport counts one hit per request (REST: the expensive-read hook of the
 * route, src/graphql/limits.ts `registerRestRateLimits`; MCP: one per tool call), so a document runs
 * with `count: false` there; `count: true` adds GraphQL's own write / expensive-read count.
 */
import { GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { AppError, badInput, toAppError, type ErrorCode } from '../errors';
import type { Context, Platform } from './context';
import { countOperation, measureOperation, type LimitsConfig } from './limits';
import { readOperation, validationRules, type ReadOperation } from './operation';

/** One fixed operation: its name (the operation's name in the source) and its GraphQL text. */
export interface FixedDocument<TData = unknown, TVars extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: string;
  readonly source: string;
  /** Phantom types of the answer's `data` and of the variables (never set). */
  readonly __types?: { data: TData; variables: TVars };
}

/** Declares a fixed document; `name` must be the operation's name in `source` (checked at compile time). */
export function fixedDocument<TData, TVars extends Record<string, unknown> = Record<string, unknown>>(
  name: string,
  source: string,
): FixedDocument<TData, TVars> {
  return { name, source };
}

interface Compiled {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  query: CompiledQuery['query'];
}

/** A fixed document read against the schema (no introspection; a subscription is a problem). */
function readFixed(schema: GraphQLSchema, doc: FixedDocument): ReadOperation {
  const read = readOperation(schema, doc.source, doc.name, validationRules(false));
  if (read.operation?.operation === 'subscription') read.problems.push('a subscription cannot be a fixed document');
  return read;
}

/** The validation errors of a document against the schema (empty: valid), as the start-up check and the tests ask. */
export function documentProblems(schema: GraphQLSchema, doc: FixedDocument): string[] {
  return readFixed(schema, doc).problems;
}

/** The domain error behind a GraphQL error (a resolver's AppError, or the gate's code and message). */
function appErrorOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GraphQLError) {
    if (err.originalError) return appErrorOf(err.originalError);
    const code = err.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR')
      return new AppError(code as ErrorCode, err.message);
  }
  return toAppError(err);
}

/** The variable a coercion message names (`Variable "$version" got invalid value…` → ['version']). */
function variableOf(message: string): string[] {
  const m = /Variable "\$(\w+)"/.exec(message);
  return m ? [m[1]] : [];
}

/**
 * The compiled fixed documents of one server. Compiled at start-up (`compile`); `run` answers the
 * document's data or throws the AppError of the first error (REST and MCP answer one error).
 */
export class DocumentRunner {
  private readonly compiled = new Map<FixedDocument, Compiled>();

  constructor(
    private readonly app: Platform,
    private readonly schema: GraphQLSchema,
    private readonly limits: LimitsConfig = app.config.limits,
  ) {}

  /** Parses, validates and compiles documents; throws listing every invalid one (the server does not start). */
  compile(docs: Iterable<FixedDocument>): this {
    const failures: string[] = [];
    for (const doc of docs) {
      if (this.compiled.has(doc)) continue;
      const { document, operation, problems } = readFixed(this.schema, doc);
      if (!document || !operation || problems.length) {
        failures.push(`${doc.name}: ${problems.join('; ')}`);
        continue;
      }
      const jit = compileQuery(this.schema, document, doc.name);
      if (!isCompiledQuery(jit)) {
        failures.push(`${doc.name}: graphql-jit cannot compile it (${jit.errors?.map((e) => e.message).join('; ')})`);
        continue;
      }
      this.compiled.set(doc, { document, operation, query: jit.query.bind(jit) });
    }
    if (failures.length)
      throw new Error(`Invalid fixed GraphQL documents (src/rest/documents):\n${failures.join('\n')}`);
    return this;
  }

  /** Runs a compiled document for one request; the data, or throws the first error as an AppError. */
  run<TData, TVars extends Record<string, unknown>>(
    doc: FixedDocument<TData, TVars>,
    ctx: Context,
    variables: TVars,
    opts: { count?: boolean } = {},
  ): Promise<TData> {
    return this.prepare(doc)(ctx, variables, opts);
  }

  /** The compiled document as a function (looked up once: a REST route keeps it for its requests). */
  prepare<TData, TVars extends Record<string, unknown>>(
    doc: FixedDocument<TData, TVars>,
  ): PreparedDocument<TData, TVars> {
    const direct = this.prepareDirect(doc);
    return (ctx, variables, opts) => {
      try {
        return Promise.resolve(direct(ctx, variables, opts));
      } catch (err) {
        return Promise.reject(err);
      }
    };
  }

  /**
   * `prepare` without a promise where none is needed: the data itself when every resolver of the
   * document answered synchronously (the REST calculator), else a promise; errors are THROWN
   * (synchronously, or by the promise). For the REST routes' hot path (src/rest/route.ts).
   */
  prepareDirect<TData, TVars extends Record<string, unknown>>(
    doc: FixedDocument<TData, TVars>,
  ): DirectDocument<TData, TVars> {
    const c = this.compiled.get(doc);
    if (!c) {
      const err = new Error(`fixed document ${doc.name} was not compiled at start-up`);
      return () => {
        throw err;
      };
    }
    return (ctx, variables, opts = NO_OPTIONS) =>
      this.execute(c, doc.name, ctx, variables, opts) as TData | Promise<TData>;
  }

  private execute(
    c: Compiled,
    name: string,
    ctx: Context,
    variables: Record<string, unknown>,
    opts: { count?: boolean },
  ): unknown {
    // A query may read from a replica, unless this request already wrote (an MCP tool: import, then read back).
    if (c.operation.operation === 'query') ctx.readOnly = !wrote.has(ctx);
    else {
      ctx.readOnly = false;
      wrote.add(ctx);
    }
    const rq = {
      schema: this.schema,
      document: c.document,
      operation: c.operation,
      operationName: name,
      variables,
      ctx,
    };
    let gate: void | Promise<void> = undefined;
    try {
      const measured = measureOperation(this.limits, rq);
      if (opts.count) gate = countOperation(this.app, this.limits, rq, measured);
    } catch (err) {
      throw appErrorOf(err);
    }
    if (gate)
      return gate.then(
        () => this.answer(c, name, ctx, variables),
        (err: unknown) => {
          throw appErrorOf(err);
        },
      );
    return this.answer(c, name, ctx, variables);
  }

  /** Runs the compiled query: its data (or a promise of it), or throws its first error. */
  private answer(c: Compiled, name: string, ctx: Context, variables: Record<string, unknown>): unknown {
    const result = c.query(undefined, ctx, variables);
    return isPromise(result) ? result.then((r) => this.dataOf(r, name)) : this.dataOf(result, name);
  }

  private dataOf(result: Awaited<ReturnType<CompiledQuery['query']>>, name: string): unknown {
    if (result.errors?.length) {
      const first = result.errors[0];
      // Variables that do not coerce (a version the schema does not know…): no data, no path, no cause.
      if (result.data == null && !first.path && !first.originalError)
        throw badInput(first.message, [
          { code: 'invalid_type', path: variableOf(first.message), message: first.message },
        ]);
      const e = appErrorOf(first);
      if (e.code === 'INTERNAL_SERVER_ERROR')
        this.app.log.error(
          { err: first.originalError ?? first, document: name },
          'unhandled error in a fixed document',
        );
      throw e;
    }
    return result.data;
  }
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> =>
  typeof (v as { then?: unknown } | null)?.then === 'function';

/** A compiled fixed document bound to its server: runs it for one request (`DocumentRunner.run`). */
export type PreparedDocument<TData, TVars extends Record<string, unknown>> = (
  ctx: Context,
  variables: TVars,
  opts?: { count?: boolean },
) => Promise<TData>;

/** A compiled fixed document run without a promise where none is needed (`DocumentRunner.prepareDirect`). */
export type DirectDocument<TData, TVars extends Record<string, unknown>> = (
  ctx: Context,
  variables: TVars,
  opts?: { count?: boolean },
) => TData | Promise<TData>;

const NO_OPTIONS: { count?: boolean } = Object.freeze({});

/** Contexts that ran a mutation: their later queries read the primary (read-your-writes). */
const wrote = new WeakSet<Context>();

const runners = new WeakMap<object, DocumentRunner>();

/** Makes a server's compiled documents the ones its REST routes and MCP tools run (src/http.ts, at start-up). */
export function installDocuments(app: Platform, runner: DocumentRunner): void {
  runners.set(app, runner);
}

/** The compiled documents of the server of this app (installed at start-up). */
export function documentsOf(app: Platform): DocumentRunner {
  const runner = runners.get(app);
  if (!runner) throw new Error('fixed documents are not compiled: the HTTP server compiles them at start-up');
  return runner;
}
