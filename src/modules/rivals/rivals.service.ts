/**
 * Rivals: a player against the players they follow or look at — win/loss against a profile, the
 * rivals passed in an import period (logs), the followers an import passed (social notifications).
 * Reads bests through the scores area and radars through the stats area.
 */
import { Prisma } from '../../generated/prisma/client';
import { PlayStyle } from '../../domain/constants';
import { parseVersion } from '../../graphql/args';
import type { AreaScope } from '../area';
import type { ReplayBest } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';
import type { StatsService } from '../stats/stats.service';

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

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'viewer'> & { services: { scores: ScoresService; stats: StatsService } };

export class RivalsService {
  constructor(private readonly s: Scope) {}

  /** Win/loss of the viewer against the user and the user's radar, in a version (default latest). */
  async compare(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const [winLoss, radar] = await Promise.all([this.winLoss(userId, version), this.s.services.stats.radar(userId, version)]);
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
      if (!chart || chart.playStyle !== PlayStyle.SP || !(COMPARE_LEVELS as readonly number[]).includes(chart.level)) continue;
      const t = tally.get(chart.level) ?? { level: chart.level, win: 0, lose: 0, draw: 0 };
      if (b.exScore > other) t.win++;
      else if (b.exScore < other) t.lose++;
      else t.draw++;
      tally.set(chart.level, t);
    }
    return COMPARE_LEVELS.flatMap((l) => (tally.has(l) ? [tally.get(l)!] : []));
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
      where: { followerId: userId, OR: [{ following: { isPublic: true } }, { approvedAt: { not: null } }] },
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
        out.set(r.chartId, [...(out.get(r.chartId) ?? []), { rivalUserId: r.userId, rivalName: names.get(r.userId)!, rivalScore: rival, myNewScore: mine, myOldScore: old }]);
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
  e: { userId: string; version: string; batchId: string; chartIds: number[] },
): Promise<OvertakenFollower[]> {
  if (!e.chartIds.length) return [];
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
      AND (imp."isPublic" OR f."approvedAt" IS NOT NULL)
      AND b."exScore" < nb."exScore" AND b."exScore" >= COALESCE(prev.ex, -1)`;
  return rows.map((o) => ({ recipientId: o.recipientId, chartId: Number(o.chartId), myEx: Number(o.myEx), newEx: Number(o.newEx) }));
}
