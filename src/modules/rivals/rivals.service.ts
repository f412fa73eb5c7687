/**
 * Rivals: a player against the players they follow or look at — win/loss against a profile, the
 * rivals passed in an import period (logs), the followers an import passed (social notifications).
 * Reads bests through the scores area and radars through the stats area.
 */
import { Prisma, type User } from '../../generated/prisma/client';
import { badInput } from '../../errors';
import { ChunkSizer, inChunks } from '../../db/yield';
import { visibleFollowWhere, visibleThroughFollow, visibleUser } from '../../db/visibility';
import { round2 } from '../../domain/bpi';
import { PlayStyle } from '../../domain/constants';
import { pageSize, parseEnumList, parseLevels, parseSearch, parseVersion } from '../../graphql/args';
import type { AreaScope } from '../area';
import type { ReplayBest } from '../scores/plays';
import { nameOrGameId, parseOffset, suggestRivals, type SuggestArgs } from './rivals.suggest';
import { SuggestionOrder } from './rivals.types';
import { RivalryService, type RivalsScope } from './rivals.rivalry.service';
import { RivalsFollowingService } from './rivals.following.service';

export interface WinLoss {
  level: number;
  win: number;
  lose: number;
  draw: number;
}

export interface OvertakenData {
  rivalUserId: string;
  rivalName: string;
  rivalScore: number;
  myNewScore: number;
  myOldScore: number | null;
}

/** A follower passed on a chart by an import of the player they follow. */
export interface OvertakenFollower {
  recipientId: string;
  chartId: number;
  myEx: number;
  newEx: number;
}

const COMPARE_LEVELS = [11, 12] as const;

export class RivalsService {
  constructor(private readonly s: RivalsScope) {}

  private rivalryService: RivalryService | null = null;
  private followingService: RivalsFollowingService | null = null;

  /** The viewer against one player: `User.rivalry` and its lists (rivals.rivalry.service.ts). */
  get rivalries(): RivalryService {
    return (this.rivalryService ??= new RivalryService(this.s));
  }

  /** Everyone a user follows (rivals.following.service.ts). */
  get following(): RivalsFollowingService {
    return (this.followingService ??= new RivalsFollowingService(this.s, this.rivalries));
  }

  /** Win/loss of the viewer against the user and the user's radar, in a version (default latest). */
  async compare(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const [winLoss, radar] = await Promise.all([
      this.winLoss(userId, version),
      this.s.services.stats.radar(userId, version),
    ]);
    return { version, winLoss, radar };
  }

  /** Viewer against the user: per level (11, 12) wins/losses/draws on SP charts both played; null for anonymous viewers. */
  async winLoss(userId: string, version: string): Promise<WinLoss[] | null> {
    const v = this.s.viewer;
    if (!v) return null;
    const scores = this.s.services.scores;
    const [mine, theirs] = await Promise.all([scores.bests(v.id, version), scores.bests(userId, version)]);
    const theirMap = new Map(theirs.map((b) => [b.chartId, b.exScore]));
    const tally = new Map<number, WinLoss>();
    for (const b of mine) {
      const other = theirMap.get(b.chartId);
      if (other === undefined) continue;
      const chart = this.s.catalogue.chart(b.chartId);
      if (!chart || chart.playStyle !== PlayStyle.SP || !(COMPARE_LEVELS as readonly number[]).includes(chart.level))
        continue;
      const t = tally.get(chart.level) ?? { level: chart.level, win: 0, lose: 0, draw: 0 };
      if (b.exScore > other) t.win++;
      else if (b.exScore < other) t.lose++;
      else t.draw++;
      tally.set(chart.level, t);
    }
    return COMPARE_LEVELS.flatMap((l) => (tally.has(l) ? [tally.get(l)!] : []));
  }

  // ───────────── ranks (docs/domain/stats.md#rankings) ─────────────

  /**
   * The player's rank on every chart they have a best on (all levels and difficulties), best
   * rank first, from the rank tree the BestScore triggers keep in the import's transaction (a new
   * best shows at once; the reference reads a cache rebuilt twice a day). Batched per request.
   */
  async chartRanks(
    userId: string,
    args: { version?: string | null; levels?: number[] | null; difficulties?: string[] | null },
  ) {
    const version = parseVersion(args.version);
    const levels = parseLevels(args.levels);
    const difficulties = parseEnumList(args.difficulties);
    const rows = await this.s.loaders.rivals.chartRanks.load({ userId, version });
    const cat = this.s.catalogue;
    const out = [];
    for (const r of rows) {
      const chart = cat.chart(r.chartId);
      if (
        !chart ||
        (levels && !levels.includes(chart.level)) ||
        (difficulties && !difficulties.includes(chart.difficulty))
      )
        continue;
      out.push({ ...r, chart, bpi: cat.currentBpi(r.chartId, r.exScore) });
    }
    return out;
  }

  // ───────────── discovery (docs/domain/social.md#discovery, user search) ─────────────

  /**
   * Public players to follow, by the basis and order asked (rivals.suggest.ts). The default
   * (total BPI, nearest, no search, first page) reads two index range scans of (version, totalBpi),
   * one above and one below the owner's stored total, whatever the population.
   */
  async suggestedRivals(userId: string, args: Omit<SuggestArgs, 'version'> & { version?: string | null }) {
    const version = parseVersion(args.version);
    const mine = args.category
      ? (await this.s.services.stats.radar(userId, version))[args.category]
      : await this.s.loaders.rivals.totalBpi.load({ userId, version });
    const simple =
      !args.category && (args.order ?? SuggestionOrder.NEAREST) === SuggestionOrder.NEAREST && !args.search?.trim();
    if (!simple || parseOffset(args.offset) > 0) return suggestRivals(this.s.db, userId, mine, { ...args, version });
    const n = pageSize(args.first, 50, 20);
    const rows = await this.s.db.$queryRaw<{ userId: string; totalBpi: number }[]>`
      (SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId" AND u."isPublic"
        WHERE s."version" = ${version} AND s."totalBpi" >= ${mine} AND s."userId" <> ${userId} ORDER BY s."totalBpi" ASC LIMIT ${n})
      UNION ALL
      (SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId" AND u."isPublic"
        WHERE s."version" = ${version} AND s."totalBpi" < ${mine} AND s."userId" <> ${userId} ORDER BY s."totalBpi" DESC LIMIT ${n})`;
    return rows
      .map((r) => ({
        userId: r.userId,
        totalBpi: r.totalBpi,
        value: r.totalBpi,
        distance: round2(Math.abs(r.totalBpi - mine)),
        raw: Math.abs(r.totalBpi - mine),
      }))
      .sort((a, b) => a.raw - b.raw || (a.userId < b.userId ? -1 : 1))
      .slice(0, n)
      .map(({ raw: _raw, ...r }) => r);
  }

  /**
   * Players whose name starts with `prefix`, or (`search`) whose name or game id holds it (dashes
   * ignored), case-insensitive, by name: public profiles, and private ones the caller may see
   * (themself, or as an approved follower). Exactly one of the two. One statement.
   */
  async searchUsers(args: { prefix?: string | null; search?: string | null; first?: number | null }): Promise<User[]> {
    const prefix = parseSearch(args.prefix, 'prefix', 20);
    const search = parseSearch(args.search, 'search', 50);
    if (!prefix === !search) {
      const path = prefix ? 'search' : 'prefix';
      const message = prefix ? 'give prefix or search, not both' : 'prefix or search must not be empty';
      throw badInput(message, [{ code: prefix ? 'invalid_argument' : 'too_small', path: [path], message }]);
    }
    const n = pageSize(args.first, 50, 20);
    const match = prefix
      ? Prisma.sql`u."nameKey" LIKE ${`${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
      : nameOrGameId(search!);
    const viewerId = this.s.viewer?.id ?? null;
    return this.s.db.$queryRaw<User[]>`
      SELECT u.* FROM "User" u
       WHERE ${match}
         AND ${visibleUser(viewerId)}
       ORDER BY u."nameKey" LIMIT ${n}`;
  }

  /**
   * Rivals overtaken in a period = users I follow (public, or private with an approved follow)
   * whose best EX as of the end of the period (by import time) lies between my best before and
   * after it; per chart.
   */
  async overtakenInPeriod(
    userId: string,
    version: string,
    charts: Set<number>,
    before: Map<number, ReplayBest>,
    after: Map<number, ReplayBest>,
    at: Date | null,
  ): Promise<Map<number, OvertakenData[]>> {
    const out = new Map<number, OvertakenData[]>();
    if (!charts.size || !at) return out;
    const db = this.s.db;
    const follows = await db.follow.findMany({
      where: { followerId: userId, ...visibleFollowWhere(userId) },
      select: { following: { select: { id: true, name: true } } },
    });
    if (!follows.length) return out;
    const names = new Map(follows.map((f) => [f.following.id, f.following.name]));
    const rows = await db.score.groupBy({
      by: ['userId', 'chartId'],
      where: { userId: { in: [...names.keys()] }, version, chartId: { in: [...charts] }, createdAt: { lte: at } },
      _max: { exScore: true },
    });
    for (const r of rows) {
      const rival = r._max.exScore ?? 0;
      const mine = after.get(r.chartId)!.exScore;
      const old = before.get(r.chartId)?.exScore ?? null;
      if (mine > rival && (old === null || old <= rival)) {
        out.set(r.chartId, [
          ...(out.get(r.chartId) ?? []),
          {
            rivalUserId: r.userId,
            rivalName: names.get(r.userId)!,
            rivalScore: rival,
            myNewScore: mine,
            myOldScore: old,
          },
        ]);
      }
    }
    return out;
  }
}

/**
 * The followers an import passed, per changed chart: a follower who may see the importer (public
 * importer, or approved follower) whose best EX on the chart (same version) was at or above the
 * importer's previous best (none = −1) and is now below the importer's new best. Runs after the
 * commit, outside any request (the social area's listener of `scores.imported`).
 */
export async function followersOvertaken(
  db: AreaScope['db'],
  e: {
    userId: string;
    version: string;
    batchId: string;
    chartIds: number[];
    exSteps?: { chartId: number; before: number; after: number }[];
  },
): Promise<OvertakenFollower[]> {
  if (!e.chartIds.length) return [];
  if (e.exSteps) {
    // The import's own step per chart (before → after, from its transaction): the result does
    // not depend on when this runs, even after a later import of the same player.
    // by chart (the order of the answer), in chunks sized by their time: PGlite runs each statement
    // on the main thread, and 1,000 steps in one statement held the process 0.1–0.3 s (issue #27)
    const steps = e.exSteps.filter((x) => x.after > x.before).sort((a, b) => a.chartId - b.chartId);
    if (!steps.length) return [];
    // nobody follows the importer (the common case): nobody to tell
    if (!(await db.follow.findFirst({ where: { followingId: e.userId }, select: { followerId: true } }))) return [];
    const parts = await inChunks(
      steps,
      (chunk) => db.$queryRaw<{ recipientId: string; chartId: number; myEx: number; newEx: number }[]>`
        SELECT b."userId" AS "recipientId", s."chartId", b."exScore" AS "myEx", s."after" AS "newEx"
        FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS s("chartId" int, "before" int, "after" int)
        JOIN "User" imp ON imp."id" = ${e.userId}
        JOIN "Follow" f ON f."followingId" = imp."id"
        JOIN "BestScore" b ON b."userId" = f."followerId" AND b."version" = ${e.version} AND b."chartId" = s."chartId"
        WHERE (imp."isPublic" OR f."approvedAt" IS NOT NULL) AND b."exScore" < s."after" AND b."exScore" >= s."before"
        ORDER BY 2, 1`,
      new ChunkSizer({ first: 200, max: 2000 }),
    );
    return parts.flat().map((o) => ({
      recipientId: o.recipientId,
      chartId: Number(o.chartId),
      myEx: Number(o.myEx),
      newEx: Number(o.newEx),
    }));
  }
  const chartIds = Prisma.join(e.chartIds);
  const rows = await db.$queryRaw<{ recipientId: string; chartId: number; myEx: number; newEx: number }[]>`
    SELECT b."userId" AS "recipientId", nb."chartId", b."exScore" AS "myEx", nb."exScore" AS "newEx"
    FROM "BestScore" nb
    JOIN "User" imp ON imp."id" = nb."userId"
    JOIN "Follow" f ON f."followingId" = nb."userId"
    JOIN "BestScore" b ON b."userId" = f."followerId" AND b."version" = nb."version" AND b."chartId" = nb."chartId"
    LEFT JOIN LATERAL (
      SELECT max(p."exScore") AS ex FROM "Score" p
      WHERE p."userId" = nb."userId" AND p."chartId" = nb."chartId" AND p."version" = nb."version" AND p."batchId" <> ${e.batchId}
    ) prev ON true
    WHERE nb."userId" = ${e.userId} AND nb."version" = ${e.version} AND nb."chartId" IN (${chartIds})
      AND ${visibleThroughFollow('f', 'imp')}
      AND b."exScore" < nb."exScore" AND b."exScore" >= COALESCE(prev.ex, -1)`;
  return rows.map((o) => ({
    recipientId: o.recipientId,
    chartId: Number(o.chartId),
    myEx: Number(o.myEx),
    newEx: Number(o.newEx),
  }));
}
