/**
 * The one visibility rule in SQL: "rows of players the viewer may see". Every query that lists
 * other players' rows filters (or masks) with one of these forms instead of spelling the rule.
 *
 * Each form is built from `ACCESS_GRANTS` (src/domain/follow-state.ts), the list `hasAccess` is
 * built from: a grant added there fails to compile here until every form translates it, and
 * test/integration/social/visibility.property.test.ts compares each form with `hasAccess` over
 * random follow states (PGlite and PostgreSQL). An administrator's bypass is not a grant: the
 * caller applies it where the rule table does (`userVisibility`).
 *
 * Forms (the viewer F, the target player T):
 * - `visibleUser(viewerId, 'u')`: T is the "User" row `u`, no Follow row joined; the approval is an
 *   EXISTS on Follow (PostgreSQL hashes the viewer's follows once). Anonymous: public players only.
 * - `visibleThroughFollow('f', 'u')`: the statement joins the Follow row `f` (F = f.followerId,
 *   T = f.followingId = u.id), so the approval is read off that row; F may be a column (every
 *   follower of an importer) or a value.
 * - `visibleUserWhere(viewerId)` / `visibleFollowWhere(followerId)`: the same for Prisma where
 *   inputs, on a User and on a Follow row whose follower is F.
 */
import { Prisma } from '../generated/prisma/client';
import { ACCESS_GRANTS, type AccessGrant } from '../domain/follow-state';

/** A trusted SQL alias (a table alias written in the statement, never user input). */
function alias(name: string): Prisma.Sql {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`visibility: bad SQL alias ${JSON.stringify(name)}`);
  return Prisma.raw(name);
}

/** Joins the grants that can hold with OR, in parentheses (FALSE when none can). */
function anyOf(parts: (Prisma.Sql | null)[]): Prisma.Sql {
  const held = parts.filter((p): p is Prisma.Sql => p !== null);
  return held.length ? Prisma.sql`(${Prisma.join(held, ' OR ')})` : Prisma.sql`FALSE`;
}

const USER_SQL: Record<AccessGrant, (viewerId: string | null, u: Prisma.Sql) => Prisma.Sql | null> = {
  self: (v, u) => (v === null ? null : Prisma.sql`${u}."id" = ${v}`),
  'public-target': (_v, u) => Prisma.sql`${u}."isPublic"`,
  'approved-follow': (v, u) =>
    v === null
      ? null
      : Prisma.sql`EXISTS (SELECT 1 FROM "Follow" vis WHERE vis."followerId" = ${v} AND vis."followingId" = ${u}."id" AND vis."approvedAt" IS NOT NULL)`,
};

/** SQL: may the viewer (null: anonymous) see the player of the "User" row aliased `user`? */
export function visibleUser(viewerId: string | null, user = 'u'): Prisma.Sql {
  const u = alias(user);
  return anyOf(ACCESS_GRANTS.map((g) => USER_SQL[g](viewerId, u)));
}

const FOLLOW_SQL: Record<AccessGrant, (f: Prisma.Sql, u: Prisma.Sql) => Prisma.Sql> = {
  self: (f, u) => Prisma.sql`${u}."id" = ${f}."followerId"`,
  'public-target': (_f, u) => Prisma.sql`${u}."isPublic"`,
  'approved-follow': (f) => Prisma.sql`${f}."approvedAt" IS NOT NULL`,
};

/**
 * SQL: may the follower of the joined "Follow" row `follow` see its target, the "User" row `user`
 * (`user.id = follow.followingId`)? No parameters: `.sql` is plain text for $queryRawUnsafe.
 */
export function visibleThroughFollow(follow = 'f', user = 'u'): Prisma.Sql {
  const f = alias(follow);
  const u = alias(user);
  return anyOf(ACCESS_GRANTS.map((g) => FOLLOW_SQL[g](f, u)));
}

const USER_WHERE: Record<AccessGrant, (viewerId: string | null) => Prisma.UserWhereInput | null> = {
  self: (v) => (v === null ? null : { id: v }),
  'public-target': () => ({ isPublic: true }),
  'approved-follow': (v) => (v === null ? null : { followers: { some: { followerId: v, approvedAt: { not: null } } } }),
};

/** Prisma: the players the viewer (null: anonymous) may see, as a User where input. */
export function visibleUserWhere(viewerId: string | null): Prisma.UserWhereInput {
  return {
    OR: ACCESS_GRANTS.map((g) => USER_WHERE[g](viewerId)).filter((w): w is Prisma.UserWhereInput => w !== null),
  };
}

const FOLLOW_WHERE: Record<AccessGrant, (followerId: string) => Prisma.FollowWhereInput> = {
  self: (v) => ({ followingId: v }),
  'public-target': () => ({ following: { isPublic: true } }),
  'approved-follow': () => ({ approvedAt: { not: null } }),
};

/** Prisma: the Follow rows of `followerId` whose target they may see (`{ followerId, ...visibleFollowWhere(followerId) }`). */
export function visibleFollowWhere(followerId: string): Prisma.FollowWhereInput {
  return { OR: ACCESS_GRANTS.map((g) => FOLLOW_WHERE[g](followerId)) };
}
