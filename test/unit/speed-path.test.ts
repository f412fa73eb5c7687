/**
 * The speed path (docs/speed-path.md) leans on two things no public API promises: graphql-jit's
 * deep module `graphql-jit/dist/variables` (the compiled executor's variable pre-check) and the
 * shape of type-graphql's metadata storage (simple types and direct handler calls). A dependency
 * update that moves either fails here with a message naming the file to fix, instead of a
 * start-up crash or a silent fallback.
 */
import 'reflect-metadata';
import { graphql, parse, buildSchema, type OperationDefinitionNode } from 'graphql';
import {
  Arg,
  Args,
  ArgsType,
  Ctx,
  Field,
  FieldResolver,
  getMetadataStorage,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { leanResolverReport } from '../../src/graphql/invoke';
import { RULES } from '../../src/graphql/rules';

const SEE = 'See docs/speed-path.md, "When a dependency update breaks it".';

/** Throws a message saying what broke and where, when `ok` is false. */
function need(ok: boolean, what: string, where: string): void {
  if (!ok) throw new Error(`Speed path broken: ${what}.\n  Relied on by ${where}.\n  ${SEE}`);
}

@ObjectType('SpeedProbe', { description: 'A probe' })
class SpeedProbe {
  @Field(() => Int, { description: 'n' }) n!: number;
}

@ArgsType()
class TimesArgs {
  @Field(() => Int, { description: 'factor' }) k!: number;
}

@Resolver(() => SpeedProbe)
class SpeedProbeResolver {
  @Query(() => SpeedProbe, { description: 'A probe' })
  speedProbe(@Arg('n', () => Int) n: number, @Ctx() _ctx: unknown): SpeedProbe {
    return { n };
  }

  @FieldResolver(() => Int, { description: 'n times k' })
  times(@Root() p: { n: number }, @Args(() => TimesArgs) a: TimesArgs): number {
    return p.n * a.k;
  }
}

// the probe's root field is public (the rule table fails closed on an operation it does not list)
RULES['Query.speedProbe'] = { rule: 'PUBLIC' };

describe('the speed path’s dependencies', () => {
  it('graphql-jit still ships dist/variables with compileVariableParsing / failToParseVariables', async () => {
    const where = "src/graphql/executor.ts (import from 'graphql-jit/dist/variables')";
    let mod: Record<string, unknown>;
    try {
      mod = await import('graphql-jit/dist/variables');
    } catch (e) {
      need(false, `graphql-jit/dist/variables cannot be loaded (${(e as Error).message})`, where);
      return;
    }
    need(
      typeof mod.compileVariableParsing === 'function',
      'graphql-jit/dist/variables has no compileVariableParsing function',
      where,
    );
    need(
      typeof mod.failToParseVariables === 'function',
      'graphql-jit/dist/variables has no failToParseVariables function',
      where,
    );
    const compile = mod.compileVariableParsing as (
      s: unknown,
      defs: unknown,
    ) => (v: Record<string, unknown>) => unknown;
    const failed = mod.failToParseVariables as (x: unknown) => boolean;
    const schema = buildSchema('type Query { a(n: Int!): Int }');
    const op = parse('query Q($n: Int!) { a(n: $n) }').definitions[0] as OperationDefinitionNode;
    const coerce = compile(schema, op.variableDefinitions);
    const good = coerce({ n: 3 });
    need(
      !failed(good) && JSON.stringify(good) === JSON.stringify({ coerced: { n: 3 } }),
      `compileVariableParsing no longer answers { coerced } (got ${JSON.stringify(good)})`,
      where,
    );
    need(failed(coerce({ n: 'three' })), 'failToParseVariables no longer recognises a failed coercion', where);
  });

  it('type-graphql’s metadata still has the shape invoke.ts reads, and the probe runs on direct calls', async () => {
    const where = 'src/graphql/invoke.ts (simpleObjectTypes, leanResolvers)';
    const schema = await buildAppSchema([SpeedProbeResolver]);
    const storage = getMetadataStorage() as unknown as Record<string, unknown>;
    for (const list of ['authorizedFields', 'queries', 'mutations', 'fieldResolvers', 'objectTypes']) {
      need(Array.isArray(storage[list]), `getMetadataStorage().${list} is not an array`, where);
    }
    const query = getMetadataStorage().queries.find((q) => q.target === SpeedProbeResolver) as unknown as
      Record<string, unknown> | undefined;
    need(
      query?.methodName === 'speedProbe' && query.schemaName === 'speedProbe',
      'a query handler lacks methodName / schemaName',
      where,
    );
    const params = (query!.params ?? []) as { kind: string; index: number; name?: string }[];
    need(
      params.some((p) => p.kind === 'arg' && p.index === 0 && p.name === 'n') &&
        params.some((p) => p.kind === 'context' && p.index === 1),
      `handler params are no longer { kind: 'arg' | 'context' | …, index, name } (got ${JSON.stringify(params.map((p) => [p.kind, p.index, p.name]))})`,
      where,
    );
    const fr = getMetadataStorage().fieldResolvers.find((r) => r.target === SpeedProbeResolver) as unknown as
      Record<string, unknown> | undefined;
    need(
      typeof fr?.getObjectType === 'function' && (fr.getObjectType as () => unknown)() === SpeedProbe,
      'a field resolver lacks getObjectType() → its object class',
      where,
    );
    need(
      fr?.kind === 'external' && fr.methodName === 'times',
      'a field resolver lacks kind: external / methodName',
      where,
    );
    const type = getMetadataStorage().objectTypes.find((t) => t.target === SpeedProbe) as unknown as
      Record<string, unknown> | undefined;
    need(
      type?.simpleResolvers === true,
      'ObjectTypeMetadata.simpleResolvers is not honoured (the simple-types pass set it)',
      where,
    );
    const fields = (type?.fields ?? []) as { name: string; schemaName: string; target: unknown }[];
    need(
      fields.some((f) => f.name === 'n' && f.schemaName === 'n' && f.target === SpeedProbe),
      'an object type field lacks name / schemaName / target',
      where,
    );

    const report = leanResolverReport()!;
    need(
      report.direct.includes('Query.speedProbe') && report.direct.includes('SpeedProbe.times'),
      'the handlers are no longer called directly',
      where,
    );
    need(report.plain.includes('SpeedProbe.n'), 'a plain field is no longer read by the default resolver', where);
    // 7 × 3 = 21, through the direct calls
    const res = await graphql({ schema, source: '{ speedProbe(n: 7) { n times(k: 3) } }', contextValue: {} });
    expect(res).toEqual({ data: { speedProbe: { n: 7, times: 21 } } });
  });

  it('turned off, the handlers run on type-graphql’s own invoker with the same answers', async () => {
    const schema = await buildAppSchema([SpeedProbeResolver], {}, { directCalls: false });
    const field = schema.getQueryType()!.getFields().speedProbe;
    expect(field.resolve).toBeDefined();
    const res = await graphql({ schema, source: '{ speedProbe(n: 7) { n times(k: 3) } }', contextValue: {} });
    expect(res).toEqual({ data: { speedProbe: { n: 7, times: 21 } } });
  });
});
