/**
 * The supporters list (`Query.supporters`, docs/domain/stats.md): every player with a supporter / staff badge
 * (UserBadge), oldest badge first, with the total BPI stored for the version. A player the caller may not see is
 * masked: an anonymous user, no total BPI.
 */
import { ArgsType, Ctx, Field, FieldResolver, Float, ObjectType, Query, Resolver, Root, Args } from 'type-graphql';
import { visibleUserWhere } from '../../db/visibility';
import { orThrow, parseVersion } from '../../domain/stats';
import type { Context } from '../../graphql/context';
import { anonymousUser, visibleUser } from '../../graphql/rules';
import { GameVersionScalar } from '../../graphql/scalars';
import { UserType } from '../shared/user.type';
import type { AreaScope } from '../area';

export interface SupporterRow {
  userId: string | null;
  role: string;
  description: string;
  grantedAt: Date;
  totalBpi: number | null;
}

/** Badges oldest first; the visible players' stored totals of the version (one query each). */
export async function listSupporters(
  s: Pick<AreaScope, 'db' | 'viewer'>,
  versionArg: string | null | undefined,
): Promise<SupporterRow[]> {
  const version = orThrow(parseVersion(versionArg));
  const badges = await s.db.userBadge.findMany({ orderBy: [{ grantedAt: 'asc' }, { userId: 'asc' }] });
  const ids = badges.map((b) => b.userId);
  const where = { AND: [{ id: { in: ids } }, visibleUserWhere(s.viewer?.id ?? null)] };
  const visible = new Set((await s.db.user.findMany({ where, select: { id: true } })).map((u) => u.id));
  const statuses = await s.db.playerVersionStatus.findMany({ where: { version, userId: { in: [...visible] } } });
  const total = new Map(statuses.map((x) => [x.userId, x.totalBpi]));
  return badges.map((b) => {
    const seen = visible.has(b.userId);
    return {
      userId: seen ? b.userId : null,
      role: b.role.toLowerCase(),
      description: b.description,
      grantedAt: b.grantedAt,
      totalBpi: seen ? (total.get(b.userId) ?? null) : null,
    };
  });
}

@ArgsType()
export class SupportersArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Version of the total BPI (default: the latest)' })
  version?: string | null;
}

@ObjectType('Supporter', {
  description: 'Value type: a player with a supporter / staff badge; masked when the caller may not see them',
})
export class SupporterType {
  @Field(() => String, { description: 'Badge: coffee, saba, iidx, developer or pro' }) role!: string;
  @Field(() => String, { description: 'Text shown with the badge' }) description!: string;
  @Field(() => Date, { description: 'When the badge was granted' }) grantedAt!: Date;
  @Field(() => Float, { nullable: true, description: 'Stored total BPI in the version (null: none stored, or masked)' })
  totalBpi!: number | null;
}

@Resolver(() => SupporterType)
export class SupportersResolver {
  @Query(() => [SupporterType], {
    description:
      'Players with a supporter / staff badge, oldest badge first, with their total BPI (issue #33 item 8). ' +
      'A player the caller may not see is listed masked (user isMasked, the masked name, totalBpi null).',
  })
  supporters(@Args(() => SupportersArgs) a: SupportersArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.supporters(a.version);
  }

  @FieldResolver(() => UserType, { description: 'The player (a masked stand-in when the caller may not see them)' })
  async user(@Root() r: SupporterRow, @Ctx() ctx: Context) {
    return (r.userId ? await visibleUser(ctx, r.userId) : null) ?? anonymousUser(ctx);
  }
}
