/**
 * `@Authorized` is not how this schema decides access (src/graphql/rules.ts is): a resolver that
 * uses it stops the start-up with a message saying so (its own file: type-graphql records roles
 * for the whole process, so any schema built next to it would fail too).
 */
import 'reflect-metadata';
import { Authorized, Int, Query, Resolver } from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';

@Resolver()
class GuardedResolver {
  @Authorized()
  @Query(() => Int, { description: 'Guarded by type-graphql roles' })
  guarded(): number {
    return 1;
  }
}

describe('resolver invocation refuses @Authorized', () => {
  it('stops at start-up, pointing at the rule table', async () => {
    await expect(buildAppSchema([GuardedResolver])).rejects.toThrow(
      /GuardedResolver\.guarded: @Authorized is not supported .*src\/graphql\/rules\.ts/,
    );
  });
});
