import type { Context } from '../../graphql/context';
import { canView } from '../../graphql/rules';
import type { PlayerVersionStatus, Prisma, User } from '../../generated/prisma/client';
import { PlayStyle } from '../../domain/constants';
import {
  MASKED_USER_NAME,
  PROFILE_TEXT_MAX,
  nameKeyOf,
  parseGameId,
  parseSocialId,
  profileImageProblem,
  sortVersionsForProfile,
  userNameProblem,
} from '../../domain/profile';
import { chartInVersion, computeRadar, type RadarValues } from '../../domain/radar';
import { badInput, conflict, fromDatabaseError, notFound, unauthenticated, type ErrorIssue } from '../../errors';
import { encodeCursor, offsetFromCursor, pageSize, type PageInfo } from '../../graphql/connection';
import { followPageKey, type FollowDirection } from './users.loaders';
import { loaderSource } from '../scores/scores.loaders';

export interface StatsEntry {
  version: string;
  totalBpi: number | null;
  arenaClass: string | null;
  arenaRank: number | null;
  area: string | null;
  gradeSp: string | null;
  gradeDp: string | null;
  updatedAt: Date | null;
  bestArenaClass: string | null;
  bestArenaClassAt: Date | null;
}

export interface StatsPrivacy {
  showArenaClass: boolean;
  showArenaRank: boolean;
  showArea: boolean;
  showGrade: boolean;
}

export interface FollowPage {
  edges: { cursor: string; node: User; followedAt: Date }[];
  pageInfo: PageInfo;
  totalCount: number;
}

export interface WinLoss {
  level: number;
  win: number;
  lose: number;
  draw: number;
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

const COMPARE_LEVELS = [11, 12] as const;

/** Profile reads and writes. Visibility of the root user is the rule table's; nested rows use canView. */
export class UsersService {
  constructor(private readonly ctx: Context) {}

  // ───────────── reads ─────────────

  userByName(name: string): Promise<User | null> {
    return this.ctx.loaders.userByNameKey.load(nameKeyOf(name));
  }

  /** May the viewer see this user's profile and stats? (per row, batched) */
  canSee(user: User): Promise<boolean> {
    this.ctx.loaders.userById.prime(user.id, user);
    return canView(this.ctx, user.id);
  }

  isOwner(userId: string): boolean {
    return this.ctx.viewer?.id === userId;
  }

  /** A profile field, or null when the viewer may not see the user. */
  async visible<T>(user: User, value: () => T | Promise<T>): Promise<T | null> {
    return (await this.canSee(user)) ? value() : null;
  }

  statsPrivacy(user: User): StatsPrivacy | null {
    if (!this.isOwner(user.id)) return null;
    return { showArenaClass: user.showArenaClass, showArenaRank: user.showArenaRank, showArea: user.showArea, showGrade: user.showGrade };
  }

  async followCounts(user: User) {
    return this.ctx.loaders.followCounts.load(user.id);
  }

  async relationship(user: User) {
    const v = this.ctx.viewer;
    if (!v) return { isFollowing: false, isFollowedBy: false, isMutual: false, isSelf: false };
    const [isFollowing, isFollowedBy] = await Promise.all([
      this.ctx.loaders.followExists.load(`${v.id}:${user.id}`),
      this.ctx.loaders.followExists.load(`${user.id}:${v.id}`),
    ]);
    return { isFollowing, isFollowedBy, isMutual: isFollowing && isFollowedBy, isSelf: v.id === user.id };
  }

  async badge(user: User) {
    const b = await this.ctx.loaders.badgeByUserId.load(user.id);
    return b ? { role: b.role.toLowerCase(), description: b.description, grantedAt: b.grantedAt } : null;
  }

  /** One entry per version (newest first, INF last), masked by the owner's switches for others. */
  async stats(user: User): Promise<StatsEntry[]> {
    const rows = await this.ctx.loaders.statusesByUserId.load(user.id);
    const owner = this.isOwner(user.id);
    return sortVersionsForProfile(rows).map((r) => maskStats(r, owner ? null : user));
  }

  async areaRank(user: User) {
    if (!user.gameId) return null;
    if (!this.isOwner(user.id) && !user.showArea) return null;
    return this.ctx.loaders.areaRankByGameId.load(user.gameId);
  }

  async followConnection(user: User, dir: FollowDirection, first: number | null | undefined, after: string | null | undefined): Promise<FollowPage> {
    const size = pageSize(first);
    const offset = offsetFromCursor(after);
    const [rows, counts] = await Promise.all([
      this.ctx.loaders.followPage.load(followPageKey(dir, user.id, offset, size + 1)),
      this.ctx.loaders.followCounts.load(user.id),
    ]);
    const slice = rows.slice(0, size);
    const users = await this.ctx.loaders.userById.loadMany(slice.map((r) => r.otherId));
    const visible = await Promise.all(users.map((u) => (u && !(u instanceof Error) ? this.canSee(u) : false)));
    const edges = slice.flatMap((r, i) => {
      const user = users[i];
      if (!user || user instanceof Error) return [];
      // Identity of users the viewer may not see is masked in follow lists (profile fields are null anyway).
      const node = visible[i] ? user : { ...user, name: MASKED_USER_NAME };
      return [{ cursor: encodeCursor([offset + i + 1]), node, followedAt: r.createdAt }];
    });
    return {
      edges,
      totalCount: dir === 'followers' ? counts.followers : counts.following,
      pageInfo: {
        hasNextPage: rows.length > size,
        hasPreviousPage: offset > 0,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges[edges.length - 1]?.cursor ?? null,
      },
    };
  }

  /** The user's radar in a version: total BPI per category over the category's charts. */
  async radar(userId: string, version: string): Promise<RadarValues> {
    const best = await loaderSource(this.ctx.loaders).bests(userId, version);
    const catalogue = this.ctx.app.catalogue;
    const bpis = new Map<number, number | null>();
    for (const b of best) {
      const c = catalogue.chart(b.chartId);
      if (c?.playStyle === PlayStyle.SP && c.radarCategory) bpis.set(b.chartId, catalogue.currentBpi(b.chartId, b.exScore));
    }
    const valid = [...catalogue.charts()].filter((c) => c.playStyle === PlayStyle.SP && c.radarCategory && chartInVersion(c, version));
    return computeRadar(valid, bpis, (id) => catalogue.chart(id)?.radarCategory);
  }

  /** Viewer against the user: per level (11, 12) wins/losses/draws on SP charts both played. */
  async winLoss(userId: string, version: string): Promise<WinLoss[] | null> {
    const v = this.ctx.viewer;
    if (!v) return null;
    const bests = loaderSource(this.ctx.loaders);
    const [mine, theirs] = await Promise.all([bests.bests(v.id, version), bests.bests(userId, version)]);
    const theirMap = new Map(theirs.map((b) => [b.chartId, b.exScore]));
    const tally = new Map<number, WinLoss>();
    for (const b of mine) {
      const other = theirMap.get(b.chartId);
      if (other === undefined) continue;
      const chart = this.ctx.app.catalogue.chart(b.chartId);
      if (!chart || chart.playStyle !== PlayStyle.SP || !(COMPARE_LEVELS as readonly number[]).includes(chart.level)) continue;
      const t = tally.get(chart.level) ?? { level: chart.level, win: 0, lose: 0, draw: 0 };
      if (b.exScore > other) t.win++;
      else if (b.exScore < other) t.lose++;
      else t.draw++;
      tally.set(chart.level, t);
    }
    return COMPARE_LEVELS.flatMap((l) => (tally.has(l) ? [tally.get(l)!] : []));
  }

  // ───────────── writes ─────────────

  async nameAvailability(name: string): Promise<{ name: string; available: boolean; message: string }> {
    const problem = userNameProblem(name);
    if (problem) return { name, available: false, message: problem };
    const taken = await this.ctx.db.user.findUnique({ where: { nameKey: nameKeyOf(name) }, select: { id: true } });
    return taken ? { name, available: false, message: 'This name is already taken' } : { name, available: true, message: 'This name is available' };
  }

  /** POST semantics: the caller has no profile yet (an external identity without a local user). */
  async createProfile(input: ProfileFields & { name: string }): Promise<User> {
    const { viewer, identity } = this.ctx;
    if (viewer) throw conflict('Profile already exists. Use updateProfile to change it.');
    if (!identity) throw unauthenticated();
    const data = validateProfile(input, true);
    try {
      const user = await this.ctx.db.$transaction(async (tx) => {
        const linked = await tx.externalIdentity.findUnique({ where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } } });
        if (linked) throw conflict('Profile already exists. Use updateProfile to change it.');
        const user = await tx.user.create({ data: { ...(data as Prisma.UserUpdateInput), name: input.name, nameKey: nameKeyOf(input.name) } as Prisma.UserCreateInput });
        await tx.externalIdentity.create({ data: { issuer: identity.issuer, subject: identity.subject, userId: user.id } });
        return user;
      });
      // From here on the caller is that user (as the same ID token resolves on the next request),
      // so the payload's fields are read as the owner's.
      this.ctx.viewer = { id: user.id, isAdmin: false };
      this.ctx.identity = undefined;
      this.ctx.loaders.userById.clear(user.id).prime(user.id, user);
      return user;
    } catch (err) {
      throw nameClash(err);
    }
  }

  /** PATCH semantics: only the given fields change; null clears an optional field. */
  async updateProfile(input: ProfileFields): Promise<User> {
    const viewer = this.ctx.viewer;
    if (!viewer) throw unauthenticated();
    const data = validateProfile(input, false);
    if (input.name !== undefined && input.name !== null) data.nameKey = nameKeyOf(input.name);
    try {
      const updated = await this.ctx.db.$transaction(async (tx) => {
        const exists = await tx.user.findUnique({ where: { id: viewer.id }, select: { id: true } });
        if (!exists) throw notFound('Profile not found. Use createProfile to create it.');
        return tx.user.update({ where: { id: viewer.id }, data });
      });
      // Later field resolvers of this request (visibility, masks) must see the new values.
      this.ctx.loaders.userById.clear(updated.id).prime(updated.id, updated);
      return updated;
    } catch (err) {
      throw nameClash(err);
    }
  }

  /**
   * Deletes the caller's account in one transaction. The user's own rows go by ON DELETE
   * CASCADE (scores, bests, batches, statuses, follows both ways, requests, invite token, lists
   * and memberships, notifications sent to or about them, notes and their upvotes, votes, memos,
   * tower data, API key, OAuth client/codes/tokens, radar cache, badge, external identities).
   * Counters on other users' content that the user contributed to (note upvotes, pattern votes)
   * are recomputed in the same transaction; follower counts are live. Cached aggregates of other
   * areas (arena averages) are told through the `users.deleted` event.
   */
  async deleteAccount(confirmName: string): Promise<{ deletedUserId: string; message: string }> {
    const viewer = this.ctx.viewer;
    if (!viewer) throw unauthenticated();
    const db = this.ctx.db;
    const user = await db.user.findUnique({ where: { id: viewer.id }, select: { id: true, name: true } });
    if (!user) throw notFound('User not found');
    if (confirmName !== user.name) {
      throw badInput('The confirmation does not match the user name', [{ code: 'mismatch', path: ['confirmName'], message: 'The confirmation does not match the user name' }]);
    }
    const bests = await db.$transaction(async (tx) => {
      const upvoted = await tx.songNoteUpvote.findMany({ where: { userId: user.id, note: { authorId: { not: user.id } } }, select: { noteId: true } });
      const votes = await tx.fingeringPatternVote.findMany({ where: { userId: user.id }, select: { chartId: true, pattern: true } });
      const bestRows = await tx.bestScore.findMany({ where: { userId: user.id }, select: { version: true, chartId: true } });
      await tx.user.delete({ where: { id: user.id } });
      for (const { noteId } of upvoted) {
        const n = await tx.songNoteUpvote.count({ where: { noteId } });
        await tx.songNote.updateMany({ where: { id: noteId }, data: { upvoteCount: n } });
      }
      // Pattern counters recomputed from the live votes (score = upvotes − downvotes, as songs/patterns).
      for (const v of votes) {
        const upvotes = await tx.fingeringPatternVote.count({ where: { chartId: v.chartId, pattern: v.pattern, type: 'UPVOTE' } });
        const downvotes = await tx.fingeringPatternVote.count({ where: { chartId: v.chartId, pattern: v.pattern, type: 'DOWNVOTE' } });
        await tx.fingeringPattern.updateMany({ where: { chartId: v.chartId, pattern: v.pattern }, data: { upvotes, downvotes, score: upvotes - downvotes } });
      }
      return bestRows;
    }, { timeout: 60_000 });
    const byVersion = new Map<string, number[]>();
    for (const b of bests) byVersion.set(b.version, [...(byVersion.get(b.version) ?? []), b.chartId]);
    this.ctx.app.events.emit('users.deleted', {
      userId: user.id,
      bestCharts: [...byVersion].map(([version, chartIds]) => ({ version, chartIds })),
    });
    return { deletedUserId: user.id, message: 'The account was deleted' };
  }
}

function maskStats(r: PlayerVersionStatus, maskFor: User | null): StatsEntry {
  const showClass = !maskFor || maskFor.showArenaClass;
  const showRank = !maskFor || maskFor.showArenaRank;
  const showArea = !maskFor || maskFor.showArea;
  const showGrade = !maskFor || maskFor.showGrade;
  return {
    version: r.version,
    totalBpi: r.totalBpi,
    arenaClass: showClass ? r.arenaClass : null,
    arenaRank: showRank ? r.arenaRank : null,
    area: showArea ? r.area : null,
    gradeSp: showGrade ? r.gradeSp : null,
    gradeDp: showGrade ? r.gradeDp : null,
    updatedAt: r.updatedAt,
    bestArenaClass: showClass ? r.bestArenaClass : null,
    bestArenaClassAt: showClass ? r.bestArenaClassAt : null,
  };
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
    if (input.profileText !== null && input.profileText.length > PROFILE_TEXT_MAX) problem('profileText', `profileText must be at most ${PROFILE_TEXT_MAX} characters`);
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
