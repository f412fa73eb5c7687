import type { Prisma, User } from '../../generated/prisma/client';
import {
  PROFILE_TEXT_MAX,
  nameKeyOf,
  parseGameId,
  parseSocialId,
  profileImageProblem,
  userNameProblem,
} from '../../domain/profile';
import fs from 'node:fs/promises';
import {
  AppError,
  badInput,
  conflict,
  fromDatabaseError,
  notFound,
  unauthenticated,
  type ErrorIssue,
} from '../../errors';
import { keyset, type KeysetArgs } from '../../graphql/args';
import { CURSOR_KEY_PURPOSE, keyCursor, keysetConnection, type PageInfo } from '../../graphql/connection';
import { anonymousUser, userVisibility } from '../../graphql/rules';
import type { AreaScope } from '../area';
import { accountDocument, writeAccountBackup } from './account-backup';
import type { FollowDirection } from './users.loaders';

export interface StatsPrivacy {
  showArenaClass: boolean;
  showArenaRank: boolean;
  showArea: boolean;
  showGrade: boolean;
}

export interface ProfileFields {
  name?: string | null;
  isPublic?: boolean | null;
  gameId?: string | null;
  socialId?: string | null;
  profileText?: string | null;
  profileImage?: string | null;
  statsPrivacy?: Partial<Record<keyof StatsPrivacy, boolean | null>> | null;
}

export type FollowEdge = { cursor: string; node: User; followedAt: Date };
/** A page of follow edges; `count` reads the whole list's size (FollowConnection.totalCount asks it only when selected). */
export type FollowPage = { edges: FollowEdge[]; pageInfo: PageInfo; count: () => Promise<number> };

type Scope = Pick<AreaScope, 'auth' | 'config' | 'ctx' | 'db' | 'events' | 'loaders' | 'log' | 'viewer'>;

/** Cursor kinds of followers / following: [createdAt, sealed other user id] (a masked member's cursor must not name them). */
const FOLLOW_KEY = ['time', 'sealed'] as const;

/**
 * Profiles: reads and writes. Who may see a user's fields is the rule table's (User.* in
 * src/graphql/rules.ts); the follow connections mask the names of users the viewer may not see.
 */
export class UsersService {
  constructor(private readonly s: Scope) {}

  // ───────────── reads ─────────────

  user(id: string): Promise<User | null> {
    return this.s.loaders.users.byId.load(id);
  }

  userByName(name: string): Promise<User | null> {
    return this.s.loaders.users.byNameKey.load(nameKeyOf(name));
  }

  /** The signed-in caller's user; null when signed out, or when the account does not exist (yet). */
  async me(viewerId: string | null): Promise<User | null> {
    return viewerId ? this.user(viewerId) : null;
  }

  /** Who is calling (the `viewer` query): signed in or not, and whether a profile exists. */
  async viewer(): Promise<{ signedIn: boolean; exists: boolean; user: User | null; canCreateProfile: boolean }> {
    const { viewer, identity } = this.s.ctx;
    const user = viewer ? await this.user(viewer.id) : null;
    return { signedIn: !!viewer || !!identity, exists: !!user, user, canCreateProfile: !viewer && !!identity };
  }

  /** The user's display switches for stats (rule User.statsPrivacy: the owner only). */
  statsPrivacy(user: User): StatsPrivacy {
    return {
      showArenaClass: user.showArenaClass,
      showArenaRank: user.showArenaRank,
      showArea: user.showArea,
      showGrade: user.showGrade,
    };
  }

  followCounts(user: Pick<User, 'id'>) {
    return this.s.loaders.users.followCounts.load(user.id);
  }

  async relationship(user: Pick<User, 'id'>) {
    const v = this.s.viewer;
    if (!v) return { isFollowing: false, isFollowedBy: false, isMutual: false, isSelf: false };
    const [isFollowing, isFollowedBy] = await Promise.all([
      this.s.loaders.users.followExists.load({ followerId: v.id, followingId: user.id }),
      this.s.loaders.users.followExists.load({ followerId: user.id, followingId: v.id }),
    ]);
    return { isFollowing, isFollowedBy, isMutual: isFollowing && isFollowedBy, isSelf: v.id === user.id };
  }

  async badge(user: Pick<User, 'id'>) {
    const b = await this.s.loaders.users.badge.load(user.id);
    return b ? { role: b.role.toLowerCase(), description: b.description, grantedAt: b.grantedAt } : null;
  }

  /**
   * One page of a user's followers / followings, newest first; users the viewer may not see are
   * anonymous stand-ins (anonymousUser). The total and the cursors are read only when the query
   * selects them (a nested rivalry read selects neither: no count statements, no sealed cursors).
   */
  async followConnection(user: Pick<User, 'id'>, direction: FollowDirection, args: KeysetArgs): Promise<FollowPage> {
    const tag = `follow:${direction}`;
    const key = this.s.auth.deriveKey(CURSOR_KEY_PURPOSE);
    const ks = keyset(args, tag, FOLLOW_KEY, { key });
    const from = ks.key ? { at: ks.key[0], otherId: ks.key[1] } : null;
    const rows = await this.s.loaders.users.followPage.load({
      direction,
      userId: user.id,
      from,
      backward: ks.backward,
      take: ks.size + 1,
    });
    // (its totalCount is not used: the page's `count` below reads the total only when selected)
    const page = keysetConnection(rows, ks, (r) => keyCursor(tag, FOLLOW_KEY, [r.createdAt, r.otherId], key), 0);
    const users = await this.s.loaders.users.byId.loadMany(page.edges.map((e) => e.node.otherId));
    const visible = await Promise.all(
      users.map((u) => (u && !(u instanceof Error) ? userVisibility(this.s.ctx, u) : false)),
    );
    const edges = page.edges.flatMap((e, i): FollowEdge[] => {
      const u = users[i];
      if (!u || u instanceof Error) return [];
      // A member the viewer may not see is masked completely, id included (as the reference's
      // userId ""): a stand-in with a random id and the masked name; every VISIBLE field is null.
      const node = visible[i] ? u : anonymousUser(this.s.ctx);
      return [
        {
          node,
          followedAt: e.node.createdAt,
          get cursor() {
            return e.cursor;
          },
        },
      ];
    });
    const counts = this.s.loaders.users.followCounts;
    return {
      edges,
      pageInfo: page.pageInfo,
      count: () => counts.load(user.id).then((c) => (direction === 'followers' ? c.followers : c.following)),
    };
  }

  // ───────────── writes ─────────────

  async nameAvailability(name: string): Promise<{ name: string; available: boolean; message: string }> {
    const problem = userNameProblem(name);
    if (problem) return { name, available: false, message: problem };
    const taken = await this.s.db.user.findUnique({ where: { nameKey: nameKeyOf(name) }, select: { id: true } });
    return taken
      ? { name, available: false, message: 'This name is already taken' }
      : { name, available: true, message: 'This name is available' };
  }

  /** POST semantics: the caller has no profile yet (an external identity without a local user). */
  async createProfile(input: ProfileFields & { name: string }): Promise<User> {
    const { viewer, identity } = this.s.ctx;
    if (viewer) throw conflict('Profile already exists. Use updateProfile to change it.');
    if (!identity) throw unauthenticated();
    const data = validateProfile(input, true);
    try {
      const user = await this.s.db.$transaction(async (tx) => {
        const linked = await tx.externalIdentity.findUnique({
          where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
        });
        if (linked) throw conflict('Profile already exists. Use updateProfile to change it.');
        const user = await tx.user.create({
          data: {
            ...(data as Prisma.UserUpdateInput),
            name: input.name,
            nameKey: nameKeyOf(input.name),
          } as Prisma.UserCreateInput,
        });
        await tx.externalIdentity.create({
          data: { issuer: identity.issuer, subject: identity.subject, userId: user.id },
        });
        return user;
      });
      // From here on the caller is that user (as the same ID token resolves on the next request),
      // so the payload's fields are read as the owner's.
      this.s.ctx.viewer = { id: user.id, isAdmin: false };
      this.s.ctx.identity = undefined;
      this.s.loaders.users.byId.clear(user.id).prime(user.id, user);
      return user;
    } catch (err) {
      throw nameClash(err);
    }
  }

  /** PATCH semantics: only the given fields change; null clears an optional field. */
  async updateProfile(input: ProfileFields): Promise<User> {
    const viewer = this.s.viewer;
    if (!viewer) throw unauthenticated();
    const data = validateProfile(input, false);
    if (input.name !== undefined && input.name !== null) data.nameKey = nameKeyOf(input.name);
    try {
      const updated = await this.s.db.$transaction(async (tx) => {
        const exists = await tx.user.findUnique({ where: { id: viewer.id }, select: { id: true } });
        if (!exists) throw notFound('Profile not found. Use createProfile to create it.');
        return tx.user.update({ where: { id: viewer.id }, data });
      });
      // Later field resolvers of this request (visibility, masks) must see the new values.
      this.s.loaders.users.byId.clear(updated.id).prime(updated.id, updated);
      return updated;
    } catch (err) {
      throw nameClash(err);
    }
  }

  /**
   * Deletes the caller's account in one transaction, after writing its JSON backup
   * (account-backup.ts; USER_DELETION_BACKUP_DIR) inside that transaction: a backup that cannot be
   * written refuses the deletion (SERVICE_UNAVAILABLE, nothing deleted). The user's own rows go by ON DELETE
   * CASCADE (scores, bests, batches, statuses, follows both ways, requests, invite token, lists
   * and memberships, notifications sent to or about them, notes and their upvotes, votes, memos,
   * tower data, API key, OAuth client/codes/tokens, radar cache, badge, external identities).
   * Counters on other users' content that the user contributed to (note upvotes, pattern votes)
   * are recomputed in the same transaction; follower counts are live. Cached aggregates of other
   * areas (arena averages) are told through the `users.deleted` event.
   */
  async deleteAccount(confirmName: string): Promise<{ deletedUserId: string; message: string }> {
    const viewer = this.s.viewer;
    if (!viewer) throw unauthenticated();
    const db = this.s.db;
    const user = await db.user.findUnique({ where: { id: viewer.id }, select: { id: true, name: true } });
    if (!user) throw notFound('User not found');
    if (confirmName !== user.name) {
      throw badInput('The confirmation does not match the user name', [
        { code: 'mismatch', path: ['confirmName'], message: 'The confirmation does not match the user name' },
      ]);
    }
    await deleteUserAccount(this.s, user.id);
    return { deletedUserId: user.id, message: 'The account was deleted' };
  }
}

/**
 * Deletes a user and all their data, after writing the JSON backup (the deleteAccount mutation
 * and `cli users delete` share it): see UsersService.deleteAccount for what goes and what is
 * recomputed. Emits `users.deleted` after the commit; returns the backup file.
 */
export async function deleteUserAccount(
  deps: Pick<AreaScope, 'db' | 'config' | 'log' | 'events'>,
  userId: string,
): Promise<{ backupFile: string }> {
  const db = deps.db;
  let backupFile: string | undefined;
  const bests = await db
    .$transaction(
      async (tx) => {
        // First the backup (docs/domain/social.md#profile), read in this transaction: when it cannot
        // be written the transaction ends here and nothing is deleted.
        try {
          backupFile = await writeAccountBackup(deps.config.userDeletionBackupDir, userId, accountDocument(tx, userId));
        } catch (err) {
          deps.log.error({ err, dir: deps.config.userDeletionBackupDir }, 'account backup failed: deletion refused');
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'The account could not be backed up before deletion; nothing was deleted. Try again later.',
          );
        }
        const upvoted = await tx.songNoteUpvote.findMany({
          where: { userId, note: { authorId: { not: userId } } },
          select: { noteId: true },
        });
        const votes = await tx.fingeringPatternVote.findMany({
          where: { userId },
          select: { chartId: true, pattern: true },
        });
        const bestRows = await tx.bestScore.findMany({ where: { userId }, select: { version: true, chartId: true } });
        await tx.user.delete({ where: { id: userId } });
        for (const { noteId } of upvoted) {
          const n = await tx.songNoteUpvote.count({ where: { noteId } });
          await tx.songNote.updateMany({ where: { id: noteId }, data: { upvoteCount: n } });
        }
        // Pattern counters recomputed from the live votes (score = upvotes − downvotes, as songs/patterns).
        for (const v of votes) {
          const upvotes = await tx.fingeringPatternVote.count({
            where: { chartId: v.chartId, pattern: v.pattern, type: 'UPVOTE' },
          });
          const downvotes = await tx.fingeringPatternVote.count({
            where: { chartId: v.chartId, pattern: v.pattern, type: 'DOWNVOTE' },
          });
          await tx.fingeringPattern.updateMany({
            where: { chartId: v.chartId, pattern: v.pattern },
            data: { upvotes, downvotes, score: upvotes - downvotes },
          });
        }
        return bestRows;
      },
      { timeout: 60_000 },
    )
    .catch(async (err) => {
      // the deletion did not happen: a backup of an account that still exists is not kept
      if (backupFile) await fs.rm(backupFile, { force: true }).catch(() => undefined);
      throw err;
    });
  const byVersion = new Map<string, number[]>();
  for (const b of bests) byVersion.set(b.version, [...(byVersion.get(b.version) ?? []), b.chartId]);
  deps.events.emit('users.deleted', {
    userId,
    bestCharts: [...byVersion].map(([version, chartIds]) => ({ version, chartIds })),
  });
  return { backupFile: backupFile! };
}

function nameClash(err: unknown): unknown {
  const e = fromDatabaseError(err);
  if (e?.code === 'CONFLICT') return conflict('This user name is already taken');
  return err;
}

/** Validates the given fields into Prisma update data (all problems at once). */
function validateProfile(input: ProfileFields, creating: boolean): Record<string, unknown> {
  const issues: ErrorIssue[] = [];
  const data: Record<string, unknown> = {};
  const problem = (path: string, message: string) => issues.push({ code: 'invalid', path: [path], message });
  if (input.name !== undefined) {
    if (input.name === null) problem('name', 'name cannot be cleared');
    else {
      const p = userNameProblem(input.name);
      if (p) problem('name', p);
      else data.name = input.name;
    }
  } else if (creating) problem('name', 'name is required');
  if (input.isPublic !== undefined) {
    if (input.isPublic === null) {
      if (!creating) problem('isPublic', 'isPublic cannot be null');
    } else data.isPublic = input.isPublic;
  }
  if (input.gameId !== undefined) {
    if (input.gameId === null || input.gameId === '') data.gameId = null;
    else {
      const g = parseGameId(input.gameId);
      if (!g) problem('gameId', 'gameId must be 8 digits (NNNN-NNNN)');
      else data.gameId = g;
    }
  }
  if (input.socialId !== undefined) {
    if (input.socialId === null || input.socialId === '') data.socialId = null;
    else {
      const s = parseSocialId(input.socialId);
      if (!s) problem('socialId', 'socialId may contain letters, digits and _ only, at most 15');
      else data.socialId = s;
    }
  }
  if (input.profileText !== undefined) {
    if (input.profileText !== null && input.profileText.length > PROFILE_TEXT_MAX)
      problem('profileText', `profileText must be at most ${PROFILE_TEXT_MAX} characters`);
    else data.profileText = input.profileText || null;
  }
  if (input.profileImage !== undefined) {
    if (input.profileImage === null || input.profileImage === '') data.profileImage = null;
    else {
      const p = profileImageProblem(input.profileImage);
      if (p) problem('profileImage', p);
      else data.profileImage = input.profileImage;
    }
  }
  if (input.statsPrivacy) {
    for (const k of ['showArenaClass', 'showArenaRank', 'showArea', 'showGrade'] as const) {
      const v = input.statsPrivacy[k];
      if (v !== undefined && v !== null) data[k] = v;
    }
  }
  if (issues.length) throw badInput(issues[0].message, issues);
  return data;
}
