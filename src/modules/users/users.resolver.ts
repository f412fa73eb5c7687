import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { UserType } from './users.types';

@Resolver(() => UserType)
export class UsersResolver {
  @Query(() => UserType, { nullable: true, description: 'A user by id (null when unknown)' })
  user(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(id);
  }
}
