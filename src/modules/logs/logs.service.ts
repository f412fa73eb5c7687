/**
 * Logs: the import batch timeline (per batch, per play day), one batch with its scores and the
 * rivals overtaken (owner only), period details (day/week/month by import or play time), the
 * version difference summary, and batch deletion (which recomputes the bests and the totals of
 * the later batches).
 */
import { retryTransaction } from '../../db/retry';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { GAME_VERSIONS, VERSION_TITLES, versionIndex, type GameVersion } from '../../domain/constants';
import { badInput, notFound } from '../../errors';
import { visibleThroughFollow } from '../../db/visibility';
import { keyset, parseVersion, rangeArgs, type KeysetArgs } from '../../graphql/args';
import { keyCursor, keysetConnection, keysetSlice, prismaKeyset } from '../../graphql/connection';
import type { AreaScope } from '../area';
import type { OvertakenData, RivalsService } from '../rivals/rivals.service';
import {
  chartFields,
  jstDate,
  loadPlays,
  playData,
  playDayTotals,
  replay,
  type PlayRow,
  type ReplayBest,
} from '../scores/plays';
import { rebuildDerived } from '../scores/rebuild.service';
import { lockCurrentDefinitions, withCurrentCatalogue } from '../scores/current-definitions';
import type { ScoresService } from '../scores/scores.service';
import { computeTotal, lockPlayer } from '../scores/totals.service';

/** `topN` of the timelines: plays listed per batch or day, 1–100 (default 5, as the reference). */
const topNArg = (topN: number | null | undefined) =>
  rangeArgs(topN, null, ['topN', 'topN'], { lo: 1, hi: 100, integer: true }).min ?? 5;

/** Plays listed per batch where no `topN` is asked (a node, a play's batch). */
const TOP_N = 5;

type BatchRow = Awaited<ReturnType<AreaScope['db']['importBatch']['findMany']>>[number];

/** The top plays of each batch (highest BPI first), in one statement (a batch can hold thousands of plays). */
export async function batchTopPlays(
  db: AreaScope['db'],
  batchIds: readonly string[],
  topN = TOP_N,
): Promise<Map<string, PlayRow[]>> {
  const plays = batchIds.length
    ? await db.$queryRawUnsafe<PlayRow[]>(
        `SELECT "id", "chartId", "version", "batchId", "exScore", "clearLamp"::text AS "clearLamp", "missCount", "bpi", "playedAt", "createdAt"
           FROM (SELECT s.*, row_number() OVER (PARTITION BY s."batchId" ORDER BY s."bpi" DESC NULLS LAST, s."id") AS rn
                   FROM "Score" s WHERE s."batchId" IN (SELECT jsonb_array_elements_text($1::jsonb))) t
          WHERE rn <= $2 ORDER BY "batchId", rn`,
        JSON.stringify(batchIds),
        topN,
      )
    : [];
  const byBatch = new Map<string, PlayRow[]>();
  for (const p of plays) {
    const list = byBatch.get(p.batchId);
    if (list) list.push(p);
    else byBatch.set(p.batchId, [p]);
  }
  return byBatch;
}

/** A Batch object (GraphQL Batch) of an import-batch row and its top plays; `userId` is kept for the rule table (node(id:)). */
export function batchNode(
  catalogue: AreaScope['catalogue'],
  b: BatchRow,
  top: readonly PlayRow[] | undefined,
  topN = TOP_N,
) {
  return {
    id: b.id,
    userId: b.userId,
    version: b.version,
    source: b.source as string,
    createdAt: b.createdAt,
    rowCount: b.rowCount,
    songCount: b.updatedCount,
    bpiUpdatedCount: b.bpiUpdatedCount,
    previousTotalBpi: b.previousTotalBpi ?? BPI_FLOOR,
    totalBpi: b.totalBpi ?? BPI_FLOOR,
    // a first batch (no previous total) differs by 0, as the reference's first log
    diff: b.previousTotalBpi === null ? 0 : round2((b.totalBpi ?? BPI_FLOOR) - b.previousTotalBpi),
    topScores: (top ?? []).slice(0, topN).map((p) => playData(catalogue, p)),
  };
}

type PageArgs = KeysetArgs;

/** Cursor kinds of batches: [createdAt, id]; of play days: [JST date]. */
const BATCH_KEY = ['time', 'str'] as const;
const PLAY_DAY_KEY = ['str'] as const;

/** JST range of a day, ISO week (Mon–Sun) or month containing `date` (YYYY-MM-DD), as UTC instants. */
export function jstRange(date: string, unit: string): { start: Date; end: Date } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw badInput('date must be YYYY-MM-DD', [
      { code: 'invalid_date', path: ['date'], message: 'date must be YYYY-MM-DD' },
    ]);
  }
  const d = new Date(`${date}T00:00:00Z`);
  let s: Date;
  let e: Date;
  if (unit === 'day') {
    s = d;
    e = new Date(d.getTime() + 86400_000);
  } else if (unit === 'week') {
    s = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86400_000);
    e = new Date(s.getTime() + 7 * 86400_000);
  } else if (unit === 'month') {
    s = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    e = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  } else {
    throw badInput('unit must be day, week or month', [
      { code: 'invalid_value', path: ['unit'], message: 'unit must be day, week or month' },
    ]);
  }
  const off = 9 * 3600_000;
  return { start: new Date(s.getTime() - off), end: new Date(e.getTime() - off - 1) };
}

export interface RivalRankInfo {
  myRankBefore: number;
  myRankAfter: number;
  totalRivals: number;
}

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'events' | 'viewer' | 'loaders'> & {
  services: { scores: ScoresService; rivals: RivalsService };
};

export class LogsService {
  constructor(private readonly s: Scope) {}

  private isOwner(userId: string): boolean {
    return this.s.viewer?.id === userId;
  }

  /** Batch objects by id (the request's loader; null for an unknown id). */
  async batchesById(ids: readonly string[]) {
    const loaded = await this.s.loaders.logs.batches.loadMany([...ids]);
    return loaded.map((r) => (r && !(r instanceof Error) ? batchNode(this.s.catalogue, r.row, r.top) : null));
  }

  /** Batches of a version, newest first: keyset pages over (createdAt, id), forward or backward. */
  async batches(userId: string, args: PageArgs & { version?: string | null; topN?: number | null }) {
    const version = parseVersion(args.version);
    const tag = `batches:${version}`;
    const ks = keyset(args, tag, BATCH_KEY);
    const topN = topNArg(args.topN);
    const q = prismaKeyset(ks, [
      ['createdAt', 'desc'],
      ['id', 'desc'],
    ]);
    const [rows, totalCount] = await Promise.all([
      this.s.db.importBatch.findMany({ where: { userId, version, ...q.where }, orderBy: q.orderBy, take: q.take }),
      this.s.db.importBatch.count({ where: { userId, version } }),
    ]);
    const page = keysetConnection(rows, ks, (b) => keyCursor(tag, BATCH_KEY, [b.createdAt, b.id]), totalCount);
    const top = await batchTopPlays(
      this.s.db,
      page.edges.map((e) => e.node.id),
      topN,
    );
    return {
      ...page,
      edges: page.edges.map((e) => ({
        cursor: e.cursor,
        node: batchNode(this.s.catalogue, e.node, top.get(e.node.id), topN),
      })),
    };
  }

  /** One entry per JST play day (total BPI recomputed by replaying plays), newest first. */
  async playDays(userId: string, args: PageArgs & { version?: string | null; topN?: number | null }) {
    const version = parseVersion(args.version);
    const tag = `playDays:${version}`;
    const ks = keyset(args, tag, PLAY_DAY_KEY);
    const topN = topNArg(args.topN);
    const days = playDayTotals(this.s.catalogue, version, await loadPlays(this.s.db, { userId, version }));
    // newest first; the key is the JST date (one entry per date)
    const all = days.map((_d, i) => this.playDayView(userId, version, days, i, topN)).reverse();
    const rows = keysetSlice(all, ks, (d, [date]) => (d.date > date ? -1 : d.date < date ? 1 : 0));
    return keysetConnection(rows, ks, (d) => keyCursor(tag, PLAY_DAY_KEY, [d.date]), all.length);
  }

  /** One play day of a player in a version (its node key: userId:version:date, PlayDay's global id). */
  private playDayView(
    userId: string,
    version: string,
    days: ReturnType<typeof playDayTotals>,
    i: number,
    topN: number,
  ) {
    const d = days[i];
    return {
      id: d.date,
      userId,
      version,
      date: d.date,
      totalBpi: d.totalBpi,
      songCount: d.plays.length,
      diff: i > 0 ? round2(d.totalBpi - days[i - 1].totalBpi) : 0, // the first play day differs by 0 (reference §6.3)
      createdAt: d.lastPlayedAt,
      topScores: [...d.plays]
        .sort((a, b) => (b.bpi ?? -Infinity) - (a.bpi ?? -Infinity))
        .slice(0, topN)
        .map((p) => playData(this.s.catalogue, p)),
    };
  }

  /**
   * Play days by node key "userId:version:date" (`node(id:)`), null for a malformed key or a day
   * without plays; topScores as the list's default (5). One load of plays per player and version.
   */
  async playDaysByKey(keys: readonly string[]) {
    const parsed = keys.map((k) => /^([0-9a-f-]{36}):([A-Za-z0-9]{1,8}):(\d{4}-\d{2}-\d{2})$/.exec(k));
    const groups = new Map<string, Promise<ReturnType<typeof playDayTotals>>>();
    const daysOf = (userId: string, version: string) => {
      const g = `${userId}:${version}`;
      if (!groups.has(g))
        groups.set(
          g,
          loadPlays(this.s.db, { userId, version }).then((plays) => playDayTotals(this.s.catalogue, version, plays)),
        );
      return groups.get(g)!;
    };
    return Promise.all(
      parsed.map(async (m) => {
        if (!m || !(GAME_VERSIONS as readonly string[]).includes(m[2])) return null;
        const days = await daysOf(m[1], m[2]);
        const i = days.findIndex((d) => d.date === m[3]);
        return i < 0 ? null : this.playDayView(m[1], m[2], days, i, topNArg(null));
      }),
    );
  }

  /** Batch details by batch id (`node(id:)`): as User.batch shows them to the caller; null for an unknown id. */
  async batchDetailsById(ids: readonly string[]) {
    const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const rows = uuids.length
      ? await this.s.db.importBatch.findMany({ where: { id: { in: uuids } }, select: { id: true, userId: true } })
      : [];
    const owner = new Map(rows.map((r) => [r.id, r.userId]));
    return Promise.all(ids.map((id) => (owner.has(id) ? this.batch(owner.get(id)!, id) : null)));
  }

  /**
   * Score entries of a set of plays: for each chart, my best after them ("current", the replayed
   * best of all my plays up to the last of them) and before them ("previous"), plus — when
   * `withRivals` — the followed rivals whose best I passed.
   */
  private async periodEntries(
    userId: string,
    version: string,
    inPeriod: (p: PlayRow) => boolean,
    withRivals: boolean,
    order: 'createdAt' | 'playedAt' = 'createdAt',
  ) {
    const plays = await loadPlays(this.s.db, { userId, version });
    // walk plays in the period's time axis (import time: id order; play time: playedAt, then id)
    if (order === 'playedAt') plays.sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id);
    const before = new Map<number, ReplayBest>();
    const after = new Map<number, ReplayBest>();
    const touched = new Set<number>();
    let firstAt: Date | null = null;
    let lastAt: Date | null = null;
    // "previous" = the best from plays outside (before) the period; "current" = including it
    for (const p of plays) {
      if (inPeriod(p)) {
        touched.add(p.chartId);
        firstAt ??= p.createdAt;
        lastAt = p.createdAt;
        replay([p], after);
      } else if (!touched.has(p.chartId)) {
        replay([p], before);
        replay([p], after);
      }
    }
    const overtaken = withRivals
      ? await this.s.services.rivals.overtakenInPeriod(userId, version, touched, before, after, lastAt)
      : new Map<number, OvertakenData[]>();
    const entries = [];
    for (const chartId of touched) {
      const c = this.s.catalogue.chart(chartId);
      if (!c) continue;
      const cur = after.get(chartId)!;
      const prev = before.get(chartId) ?? null;
      entries.push({
        ...chartFields(c),
        current: {
          exScore: cur.exScore,
          bpi: cur.bpi,
          clearLamp: cur.clearLamp,
          missCount: cur.missCount,
          playedAt: cur.playedAt,
        },
        previous: prev
          ? {
              exScore: prev.exScore,
              bpi: prev.bpi,
              clearLamp: prev.clearLamp,
              missCount: prev.missCount,
              playedAt: prev.playedAt,
            }
          : null,
        exDiff: cur.exScore - (prev?.exScore ?? 0),
        bpiDiff: round2((cur.bpi ?? BPI_FLOOR) - (prev ? (prev.bpi ?? BPI_FLOOR) : BPI_FLOOR)),
        overtaken: overtaken.get(chartId) ?? [],
        rivalRankInfo: null as RivalRankInfo | null,
      });
    }
    entries.sort((a, b) => b.bpiDiff - a.bpiDiff || a.title.localeCompare(b.title));
    return { entries, firstAt, lastAt };
  }

  /** One batch with its scores (current vs before the batch) and the rivals overtaken (owner only). */
  async batch(userId: string, batchId: string) {
    const viewerIsOwner = this.isOwner(userId);
    const batch = await this.s.db.importBatch.findFirst({ where: { id: batchId, userId } });
    if (!batch) throw notFound('Batch not found.');
    const { entries } = await this.periodEntries(userId, batch.version, (p) => p.batchId === batchId, viewerIsOwner);
    const day = jstRange(jstDate(batch.createdAt), 'day');
    const ref = { id: true, createdAt: true, totalBpi: true } as const;
    const where = { userId, version: batch.version };
    const [prev, next, prevDay, nextDay, dayBatches, ranks] = await Promise.all([
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { lt: batch.createdAt } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { gt: batch.createdAt } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { lt: day.start } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { gt: day.end } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      this.s.db.importBatch.findMany({
        where: { ...where, createdAt: { gte: day.start, lte: day.end } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      this.rivalRanks(userId, batch.version, entries),
    ]);
    for (const e of entries) e.rivalRankInfo = ranks.get(e.chartId) ?? null;
    const link = (b: { id: string; createdAt: Date; totalBpi: number | null } | null) =>
      b ? { id: b.id, createdAt: b.createdAt, totalBpi: b.totalBpi ?? BPI_FLOOR } : null;
    const rivals = new Map<string, { rivalUserId: string; rivalName: string; count: number }>();
    for (const e of entries)
      for (const o of e.overtaken)
        rivals.set(o.rivalUserId, {
          rivalUserId: o.rivalUserId,
          rivalName: o.rivalName,
          count: (rivals.get(o.rivalUserId)?.count ?? 0) + 1,
        });
    return {
      id: batch.id,
      userId,
      version: batch.version,
      source: batch.source as string,
      createdAt: batch.createdAt,
      previousTotalBpi: batch.previousTotalBpi ?? BPI_FLOOR,
      totalBpi: batch.totalBpi ?? BPI_FLOOR,
      scores: entries,
      rivalsOvertaken: [...rivals.values()],
      prevBatchId: prev?.id ?? null,
      nextBatchId: next?.id ?? null,
      prevBatch: link(prev),
      nextBatch: link(next),
      prevDayBatch: link(prevDay),
      nextDayBatch: link(nextDay),
      dayBatches: dayBatches.map((b) => link(b)!),
    };
  }

  /**
   * Per chart of a batch, my rank among the players I follow and may see (public, or approved)
   * who have a best on it in the version — their CURRENT bests, as the reference: before = 1 +
   * rivals strictly above my previous best (rivals + 1 without one), after = 1 + rivals strictly
   * above my new best. Counts only: no rival is named, so a private rival stays anonymous. One
   * statement for the whole batch. Charts no followed player has played: null.
   */
  private async rivalRanks(
    userId: string,
    version: string,
    entries: { chartId: number; current: { exScore: number }; previous: { exScore: number } | null }[],
  ): Promise<Map<number, RivalRankInfo>> {
    const out = new Map<number, RivalRankInfo>();
    if (!entries.length) return out;
    const rows = await this.s.db.$queryRawUnsafe<{ chartId: number; exScore: number }[]>(
      `SELECT b."chartId", b."exScore" FROM "BestScore" b
         JOIN "Follow" f ON f."followingId" = b."userId" AND f."followerId" = $1
         JOIN "User" r ON r."id" = b."userId"
        WHERE b."version" = $2 AND b."chartId" = ANY($3::int[]) AND ${visibleThroughFollow('f', 'r').sql}`,
      userId,
      version,
      entries.map((e) => e.chartId),
    );
    const byChart = new Map<number, number[]>();
    for (const r of rows) {
      const list = byChart.get(Number(r.chartId));
      if (list) list.push(Number(r.exScore));
      else byChart.set(Number(r.chartId), [Number(r.exScore)]);
    }
    for (const e of entries) {
      const rivals = byChart.get(e.chartId);
      if (!rivals?.length) continue;
      const above = (ex: number) => rivals.filter((x) => x > ex).length;
      out.set(e.chartId, {
        myRankBefore: e.previous ? 1 + above(e.previous.exScore) : rivals.length + 1,
        myRankAfter: 1 + above(e.current.exScore),
        totalRivals: rivals.length,
      });
    }
    return out;
  }

  /** Score details of a day/week/month, grouped by import time (createdAt) or play time (playedAt). */
  async scoreDetails(userId: string, args: { version?: string | null; date: string; unit: string; groupedBy: string }) {
    const version = parseVersion(args.version);
    const { date, unit, groupedBy } = args;
    const viewerIsOwner = this.isOwner(userId);
    if (!['createdAt', 'playedAt'].includes(groupedBy))
      throw badInput('groupedBy must be createdAt or playedAt', [
        { code: 'invalid_value', path: ['groupedBy'], message: 'groupedBy must be createdAt or playedAt' },
      ]);
    const { start, end } = jstRange(date, unit);
    const inRange = (p: PlayRow) => {
      const t = (groupedBy === 'createdAt' ? p.createdAt : p.playedAt).getTime();
      return t >= start.getTime() && t <= end.getTime();
    };
    const { entries } = await this.periodEntries(
      userId,
      version,
      inRange,
      viewerIsOwner,
      groupedBy === 'playedAt' ? 'playedAt' : 'createdAt',
    );
    const batchCount =
      groupedBy === 'createdAt'
        ? await this.s.db.importBatch.count({ where: { userId, version, createdAt: { gte: start, lte: end } } })
        : 0;
    // total BPI at the end of the period (replay of plays up to then, the one total definition)
    const plays = (await loadPlays(this.s.db, { userId, version })).filter(
      (p) => (groupedBy === 'createdAt' ? p.createdAt : p.playedAt) <= end,
    );
    const bests = replay(
      groupedBy === 'createdAt'
        ? plays
        : [...plays].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id),
    );
    const total = computeTotal(this.s.catalogue, version, new Map([...bests].map(([k, b]) => [k, b.bpi])));
    const { previous, next } = await this.periodNeighbours(userId, version, groupedBy, start, end);
    return {
      start,
      end,
      unit,
      groupedBy,
      period: unit,
      basis: groupedBy,
      label: date,
      totalBpi: total.totalBpi,
      batchCount,
      scores: entries,
      previous,
      next,
    };
  }

  /**
   * Navigation of a period (the reference's pagination prev / next): by import time, the last
   * batch before the period and the first after it; by play time, the nearest play day before and
   * after it, with the total BPI after that day (the play-day timeline). null at either end.
   */
  private async periodNeighbours(userId: string, version: string, groupedBy: string, start: Date, end: Date) {
    type Link = { date: string; createdAt: Date; totalBpi: number; batchId: string | null };
    if (groupedBy === 'createdAt') {
      const ref = { id: true, createdAt: true, totalBpi: true } as const;
      const [p, n] = await Promise.all([
        this.s.db.importBatch.findFirst({
          where: { userId, version, createdAt: { lt: start } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          select: ref,
        }),
        this.s.db.importBatch.findFirst({
          where: { userId, version, createdAt: { gt: end } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: ref,
        }),
      ]);
      const link = (b: typeof p): Link | null =>
        b
          ? { date: jstDate(b.createdAt), createdAt: b.createdAt, totalBpi: b.totalBpi ?? BPI_FLOOR, batchId: b.id }
          : null;
      return { previous: link(p), next: link(n) };
    }
    const days = playDayTotals(this.s.catalogue, version, await loadPlays(this.s.db, { userId, version }));
    const first = jstDate(start);
    const last = jstDate(end);
    let previous: Link | null = null;
    let next: Link | null = null;
    for (const d of days) {
      if (d.date < first) previous = { date: d.date, createdAt: d.lastPlayedAt, totalBpi: d.totalBpi, batchId: null };
      else if (d.date > last && !next)
        next = { date: d.date, createdAt: d.lastPlayedAt, totalBpi: d.totalBpi, batchId: null };
    }
    return { previous, next };
  }

  /** My bests in `version` against the nearest earlier version with data (docs/domain/score-lists.md#logs-and-batches). */
  async versionSummary(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const idx = versionIndex(version);
    const have = new Set(
      (await this.s.db.bestScore.groupBy({ by: ['version'], where: { userId } })).map((r) => r.version),
    );
    let compare: GameVersion | null = null;
    for (let i = idx - 1; i >= 0; i--) {
      if (have.has(GAME_VERSIONS[i])) {
        compare = GAME_VERSIONS[i];
        break;
      }
    }
    if (!compare) return { currentVersion: version, compareVersion: null, compareVersionLabel: null, entries: [] };
    return {
      currentVersion: version,
      compareVersion: compare,
      compareVersionLabel: `${compare} ${VERSION_TITLES[compare]}`,
      entries: await this.s.services.scores.versionComparison(userId, version, compare, { summaryDiffs: true }),
    };
  }

  /** Deletes one batch of the owner (its plays go with it) and recomputes bests and later totals. */
  async deleteBatch(userId: string, batchId: string) {
    // run again after a deadlock / serialization failure (nothing written): never INTERNAL; and
    // with the catalogue loaded afresh when a definitions import made it stale meanwhile
    const result = await withCurrentCatalogue(this.s.catalogue, (seen) =>
      retryTransaction(() =>
        this.s.db.$transaction(
          async (tx) => {
            await lockPlayer(tx, userId);
            await lockCurrentDefinitions(tx, seen);
            const batch = await tx.importBatch.findFirst({ where: { id: batchId, userId } });
            if (!batch) throw notFound('Batch not found.');
            await tx.importBatch.delete({ where: { id: batchId } });
            await rebuildDerived(tx, this.s.catalogue, userId, batch.version, batch.createdAt);
            return batch;
          },
          { timeout: 60_000 },
        ),
      ),
    );
    this.s.events.emit('scores.batchDeleted', { userId, version: result.version, batchId });
    return { batchId, version: result.version, message: 'Batch deleted successfully.' };
  }
}
