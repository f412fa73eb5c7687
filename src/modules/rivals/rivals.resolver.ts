import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { ProfileCompareType } from './rivals.types';

/** Rival reads on User (rules: src/graphql/rules.ts, User.compare). */
@Resolver(() => UserType)
export class RivalsUserResolver {
  @FieldResolver(() => ProfileCompareType, { nullable: true, description: 'Win/loss of the viewer against this user and this user\'s radar, in a version (default latest)' })
  compare(@Root() user: User, @Arg('version', () => String, { nullable: true }) version: string | null | undefined, @Ctx() ctx: Context) {
    return ctx.services.rivals.compare(user.id, version);
  }
}
