/**
 * The speed path never surprises: a decorator the direct invocation (src/graphql/invoke.ts)
 * cannot honour stops the schema build with a message, instead of being skipped. Each case builds
 * a tiny schema of its own (type-graphql's metadata is per test file: jest isolates globals).
 */
import 'reflect-metadata';
import { Arg, Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { leanResolverReport } from '../../src/graphql/invoke';

@ObjectType({ description: 'A probe' })
class Probe {
  @Field(() => Int) n!: number;
}

@Resolver(() => Probe)
class PlainResolver {
  @Query(() => Probe, { description: 'A probe' })
  probe(@Arg('n', () => Int) n: number): Probe {
    return { n };
  }

  @FieldResolver(() => Int, { description: 'Twice n' })
  twice(@Root() p: { n: number }, @Ctx() _ctx: unknown): number {
    return p.n * 2;
  }
}

@Resolver()
class MiddlewareResolver {
  @UseMiddleware(async (_data, next) => next())
  @Query(() => Int, { description: 'With a middleware' })
  wrapped(): number {
    return 1;
  }
}

@Resolver()
class ValidatedResolver {
  @Query(() => Int, { description: 'With argument validation' })
  validated(@Arg('n', () => Int, { validate: true }) n: number): number {
    return n;
  }
}

// (@Authorized, checked by type-graphql over all metadata, has its own file: invoke-authorized.test.ts.)
describe('resolver invocation refuses what it cannot honour', () => {
  it('calls a plain resolver directly and reads plain fields with the default resolver', async () => {
    const schema = await buildAppSchema([PlainResolver]);
    expect(leanResolverReport()!.direct).toEqual(expect.arrayContaining(['Query.probe', 'Probe.twice']));
    expect(leanResolverReport()!.plain).toContain('Probe.n');
    expect(
      (schema.getType('Probe') as { getFields(): Record<string, { resolve?: unknown }> }).getFields().n.resolve,
    ).toBeUndefined();
  });

  it('stops at start-up on @UseMiddleware', async () => {
    await expect(buildAppSchema([MiddlewareResolver])).rejects.toThrow(
      /Query\.wrapped: @UseMiddleware is not supported/,
    );
  });

  it('stops at start-up on argument validation', async () => {
    await expect(buildAppSchema([ValidatedResolver])).rejects.toThrow(
      /Query\.validated: argument validation is not supported/,
    );
  });
});
