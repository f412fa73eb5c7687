/**
 * The compiled executor of POST /graphql: the hot path for operations this process has seen before.
 *
 * Apollo's request pipeline (plugins, header maps, request/response objects, graphql-js execute)
 * costs far more than our resolvers on small operations: on the BPI calculator it held GraphQL to
 * a tenth of the REST route's throughput (bench/RESULTS.md). This executor keeps, per query text
 * and operation name, the parsed and validated document compiled by graphql-jit, and runs it
 * with the SAME context (contextForRequest), the SAME gate (checkOperation: NUL, depth,
 * complexity, rate limits), the SAME resolvers and rule table (they are in the schema) and the
 * SAME error mapping (formatError), writing the body Apollo would write
 * (`JSON.stringify({errors, data}) + '\n'`, `application/json; charset=utf-8`).
 *
 * Everything it does not handle goes to Apollo unchanged (`handle` answers false): anything but a
 * JSON POST of `{query, variables?, operationName?}`, extensions (APQ), Accept headers other than
 * JSON, parse and validation errors, subscriptions, introspection, variables that do not coerce,
 * a bad bearer token. Those requests get Apollo's exact error responses; the executor never
 * produces a GraphQL error of its own.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  visit,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
// The variable coercion graphql-jit compiles into every query, compiled once per document here
// too: the pre-check below sees exactly what execution would (graphql-jit is pinned exactly).
import { compileVariableParsing, failToParseVariables } from 'graphql-jit/dist/variables';
import { sendAtTurnEnd } from '../answer-batch';
import type { Platform as App } from './context';
import { contextForRequest, type Context } from './context';
import {
  countOperation,
  measureOperation,
  rateLimitedRetryAfter,
  type LimitsConfig,
  type OperationCost,
} from './limits';
import { readOperation, validationRules } from './operation';

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

interface Compiled {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | undefined;
  /** Coerces request variables as the compiled query will; null when the operation declares none. */
  coerceVariables: ReturnType<typeof compileVariableParsing> | null;
  /**
   * Compiled by graphql-jit on the first request that passed the gate (a document refused by
   * the limits is never compiled); null when graphql-jit cannot compile it (Apollo answers).
   */
  query?: CompiledQuery['query'] | null;
}

/** Marks a document that Apollo must answer (its errors, its features); remembered so it is parsed once. */
const TO_APOLLO = Symbol('to-apollo');

/** Documents kept per process; the oldest is dropped beyond this. */
const COMPILED_CACHE_SIZE = 500;

const JSON_BODY = /^application\/json\s*(;|$)/i;
const CONTENT_TYPE = 'application/json; charset=utf-8';

/** Accept headers for which Apollo answers `application/json; charset=utf-8` (and so do we). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  const a = accept.trim().toLowerCase();
  return a === '*/*' || a === 'application/json' || a === 'application/json, */*';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function usesIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true;
    },
  });
  return found;
}

export class CompiledExecutor {
  private readonly cache = new Map<string, Compiled | typeof TO_APOLLO>();
  private readonly rules: readonly ValidationRule[];
  /** Requests answered here / handed to Apollo, documents compiled by graphql-jit (for tests and the benchmark). */
  readonly stats = { compiled: 0, apollo: 0, jit: 0 };

  constructor(
    private readonly app: App,
    private readonly schema: GraphQLSchema,
    private readonly formatError: FormatError,
    private readonly limits: LimitsConfig = app.config.limits,
  ) {
    // The validation Apollo applies: graphql-js' rules, and no introspection when it is turned off.
    this.rules = validationRules(app.config.introspection);
  }

  /**
   * Answers the request and returns true, or returns false (nothing sent) for Apollo to answer.
   * Without a promise when none is needed (an anonymous caller, no rate limit to count, resolvers
   * that answer synchronously): the answer is then handed to sendAtTurnEnd before `handle` returns.
   */
  handle(req: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> {
    const body = req.body;
    if (
      req.method !== 'POST' ||
      !JSON_BODY.test(req.headers['content-type'] ?? '') ||
      !acceptsJson(req.headers.accept) ||
      !isRecord(body) ||
      typeof body.query !== 'string' ||
      (body.extensions !== undefined && body.extensions !== null) ||
      (body.variables !== undefined && body.variables !== null && !isRecord(body.variables)) ||
      (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== 'string')
    ) {
      return this.toApollo();
    }
    const compiled = this.lookup(body.query, body.operationName ?? undefined);
    if (compiled === TO_APOLLO) return this.toApollo();
    const variables = body.variables ?? {};
    // Apollo answers variables that do not coerce (400 BAD_USER_INPUT) before anything runs.
    if (compiled.coerceVariables && failToParseVariables(compiled.coerceVariables(variables))) {
      return this.toApollo();
    }

    let pending: Context | Promise<Context>;
    try {
      pending = contextForRequest(this.app, req);
    } catch {
      return this.toApollo(); // a bad bearer token: Apollo's 401 with the error's code
    }
    if (pending instanceof Promise)
      return pending.then(
        (ctx) => this.run(compiled, variables, ctx, reply),
        () => this.toApollo(),
      );
    return this.run(compiled, variables, pending, reply);
  }

  /** The gate, then the compiled query, for a request with its context. */
  private run(
    compiled: Compiled,
    variables: Record<string, unknown>,
    ctx: Context,
    reply: FastifyReply,
  ): boolean | Promise<boolean> {
    if (compiled.operation.operation === 'query') ctx.readOnly = true;

    const rq = {
      schema: this.schema,
      document: compiled.document,
      operation: compiled.operation,
      operationName: compiled.operationName,
      variables,
      ctx,
    };
    let measured: OperationCost;
    try {
      measured = measureOperation(this.limits, rq);
    } catch (err) {
      // Refused before anything is compiled or run: `{errors}` with the error's HTTP status.
      this.stats.compiled++;
      this.send(reply, { errors: [err] });
      return true;
    }
    if (compiled.query === undefined) {
      this.stats.jit++;
      const jit = compileQuery(this.schema, compiled.document, compiled.operationName);
      compiled.query = isCompiledQuery(jit) ? jit.query.bind(jit) : null;
    }
    const query = compiled.query;
    if (query === null) return this.toApollo(); // before any rate limit is counted: Apollo counts it
    let gate: void | Promise<void>;
    try {
      gate = countOperation(this.app, this.limits, rq, measured);
    } catch (err) {
      this.stats.compiled++;
      this.send(reply, { errors: [err] });
      return true;
    }
    if (gate)
      return gate.then(
        () => this.execute(query, ctx, variables, reply),
        (err: unknown) => {
          this.stats.compiled++;
          this.send(reply, { errors: [err] });
          return true;
        },
      );
    return this.execute(query, ctx, variables, reply);
  }

  private execute(
    query: NonNullable<Compiled['query']>,
    ctx: Context,
    variables: Record<string, unknown>,
    reply: FastifyReply,
  ): true | Promise<true> {
    this.stats.compiled++;
    let result: ReturnType<typeof query>;
    try {
      result = query(undefined, ctx, variables);
    } catch (err) {
      result = { errors: [err as GraphQLError] }; // resolver errors are in result.errors; this is anything else (Apollo: 500)
    }
    if (typeof (result as { then?: unknown }).then === 'function')
      return (result as Promise<{ errors?: readonly unknown[]; data?: unknown }>).then(
        (r) => this.sent(reply, r),
        (err: unknown) => this.sent(reply, { errors: [err] }),
      );
    return this.sent(reply, result as { errors?: readonly unknown[]; data?: unknown });
  }

  private sent(reply: FastifyReply, result: { errors?: readonly unknown[]; data?: unknown }): true {
    this.send(reply, result);
    return true;
  }

  private toApollo(): false {
    this.stats.apollo++;
    return false;
  }

  private lookup(query: string, operationName: string | undefined): Compiled | typeof TO_APOLLO {
    const key = operationName === undefined ? query : `${operationName}\u0000${query}`;
    let entry = this.cache.get(key);
    if (entry === undefined) {
      if (query.length > this.app.config.graphqlMaxQueryLength) return TO_APOLLO;
      entry = this.compile(query, operationName);
      if (this.cache.size >= COMPILED_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, entry);
    }
    return entry;
  }

  private compile(query: string, operationName: string | undefined): Compiled | typeof TO_APOLLO {
    const { document, operation, problems } = readOperation(this.schema, query, operationName, this.rules, {
      maxTokens: this.app.config.graphqlMaxTokens,
    });
    if (problems.length || !document || !operation) return TO_APOLLO;
    if (operation.operation === 'subscription' || usesIntrospection(document)) return TO_APOLLO;
    return {
      document,
      operation,
      operationName,
      coerceVariables: operation.variableDefinitions?.length
        ? compileVariableParsing(this.schema, operation.variableDefinitions)
        : null,
    };
  }

  /** Writes `{errors, data}` as Apollo does: errors through formatError, their extensions.http merged into the response. */
  private send(reply: FastifyReply, result: { errors?: readonly unknown[]; data?: unknown }): void {
    let status: number | undefined;
    let errors: GraphQLFormattedError[] | undefined;
    if (result.errors?.length) {
      errors = [];
      for (const error of result.errors) {
        const g =
          error instanceof GraphQLError
            ? error
            : new GraphQLError(error instanceof Error ? error.message : String(error), {
                originalError: error instanceof Error ? error : undefined,
              });
        const extensions: Record<string, unknown> = {
          ...g.extensions,
          code: g.extensions?.code ?? 'INTERNAL_SERVER_ERROR',
        };
        const http = extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
        if (
          http &&
          typeof http === 'object' &&
          (http.status === undefined || typeof http.status === 'number') &&
          (http.headers === undefined || http.headers instanceof Map)
        ) {
          if (http.status) status = http.status;
          for (const [name, value] of http.headers ?? []) reply.header(name, value);
          delete extensions.http;
        }
        try {
          errors.push(this.formatError({ ...g.toJSON(), extensions }, error));
        } catch {
          errors.push({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
        }
      }
      // A resolver-level rate limit (token exchange, invite lookups): 429 + Retry-After, as Apollo's path.
      const retryAfter = rateLimitedRetryAfter(result.errors);
      if (retryAfter !== undefined) {
        status = 429;
        reply.header('retry-after', String(retryAfter));
      }
    }
    // (written with the turn's other answers: src/answer-batch.ts)
    sendAtTurnEnd(
      reply,
      status ?? ('data' in result ? 200 : 500),
      CONTENT_TYPE,
      answerBody(JSON.stringify({ errors, data: result.data }) + '\n'),
    );
  }
}

/**
 * The response body: a large answer as its UTF-8 bytes, encoded once (for a string Fastify measures
 * its UTF-8 length, then the socket encodes it again: two passes over a dashboard's few hundred KiB
 * of two-byte text); a small one as the string, which Node writes together with the headers in one
 * piece where a Buffer costs an allocation, an encoding pass and a second piece (~1 µs of a
 * calculator answer's ~45, #32).
 */
function answerBody(text: string): string | Buffer {
  return text.length <= SMALL_ANSWER ? text : utf8(text);
}
const SMALL_ANSWER = 16 * 1024;

/**
 * The UTF-8 bytes of `text` (the bytes of Buffer.from(text)), written in one pass into room for the
 * worst case (3 bytes per UTF-16 unit; a surrogate pair's 4 bytes fit its 6) instead of measuring
 * the length first: for two-byte text (a dashboard's Japanese titles) the measuring pass cost more
 * than the writing one (~0.45 of ~1.1 ms for a 411 KiB answer).
 */
function utf8(text: string): Buffer {
  // a very large answer is measured first rather than reserving three times its length
  if (text.length > 4 * 1024 * 1024) return Buffer.from(text);
  const buf = Buffer.allocUnsafe(text.length * 3);
  return buf.subarray(0, buf.write(text, 'utf8'));
}
