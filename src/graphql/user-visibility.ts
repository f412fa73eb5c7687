/**
 * Can the caller see a player's data? The per-request verdicts the rule table's VISIBLE rule
 * (src/graphql/rules.ts) and the areas ask: public, self, an administrator, or an approved
 * follower (the pure rule: `hasAccess` in src/domain/follow-state.ts; in SQL: src/db/visibility.ts).
 */
import { randomUUID } from 'node:crypto';
import { MASKED_USER_NAME } from '../domain/profile';
import { notFound } from '../errors';
import type { Context } from './context';
import type { User } from '../generated/prisma/client';

/** Can the caller see this user's data? (public, self, or approved follower) NOT_FOUND for an unknown user. */
export async function canView(ctx: Context, targetUserId: string): Promise<boolean> {
  const access = ctx.app.areas.access;
  const user = await access.user(ctx, targetUserId);
  if (!user) throw notFound('User not found');
  if (user.isPublic) return true;
  if (!ctx.viewer) return false;
  if (ctx.viewer.id === targetUserId || ctx.viewer.isAdmin) return true;
  return access.approvedFollow(ctx, ctx.viewer.id, targetUserId);
}

/** Verdicts of canView per request, by user id (kept with the request's loaders: renewed with them). */
const verdicts = new WeakMap<object, Map<string, boolean | Promise<boolean>>>();

/**
 * canView for a user object, remembered for the request: the first field of a user asks (one
 * promise), the user's other fields get a plain boolean. A user row known to be public, and the
 * caller themself, need no lookup.
 */
export function userVisibility(ctx: Context, user: { id: string; isPublic?: boolean }): boolean | Promise<boolean> {
  if (user.isPublic === true) return true;
  const v = ctx.viewer;
  if (v && (v.id === user.id || v.isAdmin)) return true;
  let memo = verdicts.get(ctx.loaders);
  if (!memo) verdicts.set(ctx.loaders, (memo = new Map()));
  const known = memo.get(user.id);
  if (known !== undefined) return known;
  const asked = canView(ctx, user.id).then((ok) => {
    memo.set(user.id, ok);
    return ok;
  });
  memo.set(user.id, asked);
  return asked;
}

/**
 * A stand-in for a user the caller may not see, where even their id must not show (members of
 * follow lists, as the reference's `userId: ""`): a fresh random id (per request and row: it
 * names nobody and links nothing), the masked name, `isPublic: false`, `createdAt` the Unix
 * epoch, no other column. The rule table answers every non-PUBLIC field of it with its deny
 * (null) without a lookup, and `isMasked` is true.
 */
export function anonymousUser(ctx: Context): User {
  const id = randomUUID();
  let memo = verdicts.get(ctx.loaders);
  if (!memo) verdicts.set(ctx.loaders, (memo = new Map()));
  memo.set(id, false);
  return { id, name: MASKED_USER_NAME, isPublic: false, createdAt: new Date(0) } as User;
}

/** The user when the caller may see them, else null: players in lists and rankings are masked with it. */
export async function visibleUser(ctx: Context, userId: string): Promise<User | null> {
  return (await userVisibility(ctx, { id: userId })) ? ctx.app.areas.access.user(ctx, userId) : null;
}
