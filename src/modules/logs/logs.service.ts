/**
 * Logs group: the import batch timeline (per batch, per play day), one batch with its scores and
 * the rivals overtaken, period details (day/week/month by import or play time), the version
 * difference summary, and batch deletion (which recomputes the bests and the totals of the
 * later batches).
 */
import type { Db } from '../../db/client';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { GAME_VERSIONS, VERSION_TITLES, versionIndex, type GameVersion } from '../../domain/constants';
import { badInput, notFound } from '../../errors';
import type { EventBus } from '../../events';
import { chartFields, jstDate, loadPlays, playData, playDayTotals, replay, versionComparison, type Lookup, type PlayRow, type ReplayBest } from '../scores/scores.service';
import { bestBpis, computeTotal, lockPlayer, storeTotals, totalSetIds } from '../scores/totals.service';

const TOP_N = 5;

/** Batches of a version, newest first (offset paging). */
export async function listBatches(db: Db, cat: Lookup, userId: string, version: string, offset: number, take: number) {
  const [rows, totalCount] = await Promise.all([
    db.importBatch.findMany({ where: { userId, version }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take }),
    db.importBatch.count({ where: { userId, version } }),
  ]);
  // top plays per batch in one statement (a batch can hold thousands of plays)
  const plays = rows.length
    ? await db.$queryRawUnsafe<PlayRow[]>(
        `SELECT "id", "chartId", "version", "batchId", "exScore", "clearLamp"::text AS "clearLamp", "missCount", "bpi", "playedAt", "createdAt"
           FROM (SELECT s.*, row_number() OVER (PARTITION BY s."batchId" ORDER BY s."bpi" DESC NULLS LAST, s."id") AS rn
                   FROM "Score" s WHERE s."batchId" IN (SELECT jsonb_array_elements_text($1::jsonb))) t
          WHERE rn <= ${TOP_N} ORDER BY "batchId", rn`,
        JSON.stringify(rows.map((r) => r.id)),
      )
    : [];
  const byBatch = new Map<string, PlayRow[]>();
  for (const p of plays) {
    const list = byBatch.get(p.batchId);
    if (list) list.push(p);
    else byBatch.set(p.batchId, [p]);
  }
  const nodes = rows.map((b) => ({
    id: b.id,
    version: b.version,
    source: b.source as string,
    createdAt: b.createdAt,
    rowCount: b.rowCount,
    songCount: b.updatedCount,
    bpiUpdatedCount: b.bpiUpdatedCount,
    previousTotalBpi: b.previousTotalBpi ?? BPI_FLOOR,
    totalBpi: b.totalBpi ?? BPI_FLOOR,
    diff: round2((b.totalBpi ?? BPI_FLOOR) - (b.previousTotalBpi ?? BPI_FLOOR)),
    topScores: (byBatch.get(b.id) ?? []).slice(0, TOP_N).map((p) => playData(cat, p)),
  }));
  return { nodes, totalCount };
}

/** One entry per JST play day (total BPI recomputed by replaying plays), newest first. */
export async function playDayTimeline(db: Db, cat: Lookup, userId: string, version: string) {
  const days = playDayTotals(cat, version, await loadPlays(db, { userId, version }));
  const out = days.map((d, i) => ({
    id: d.date,
    date: d.date,
    totalBpi: d.totalBpi,
    songCount: d.plays.length,
    diff: round2(d.totalBpi - (i > 0 ? days[i - 1].totalBpi : BPI_FLOOR)),
    createdAt: d.lastPlayedAt,
    topScores: [...d.plays].sort((a, b) => (b.bpi ?? -Infinity) - (a.bpi ?? -Infinity)).slice(0, TOP_N).map((p) => playData(cat, p)),
  }));
  return out.reverse();
}

export interface OvertakenData {
  rivalUserId: string;
  rivalName: string;
  rivalScore: number;
  myNewScore: number;
  myOldScore: number | null;
}

/**
 * Score entries of a set of plays: for each chart, my best after them ("current", the replayed
 * best of all my plays up to the last of them) and before them ("previous"), plus — when
 * `rivals` is given — the followed rivals whose best I passed.
 */
async function periodEntries(db: Db, cat: Lookup, userId: string, version: string, inPeriod: (p: PlayRow) => boolean, withRivals: boolean, order: 'createdAt' | 'playedAt' = 'createdAt') {
  const plays = await loadPlays(db, { userId, version });
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
  const overtaken = withRivals ? await rivalsOvertaken(db, userId, version, touched, before, after, lastAt) : new Map<number, OvertakenData[]>();
  const entries = [];
  for (const chartId of touched) {
    const c = cat.chart(chartId);
    if (!c) continue;
    const cur = after.get(chartId)!;
    const prev = before.get(chartId) ?? null;
    entries.push({
      ...chartFields(c),
      current: { exScore: cur.exScore, bpi: cur.bpi, clearLamp: cur.clearLamp, missCount: cur.missCount, playedAt: cur.playedAt },
      previous: prev ? { exScore: prev.exScore, bpi: prev.bpi, clearLamp: prev.clearLamp, missCount: prev.missCount, playedAt: prev.playedAt } : null,
      exDiff: cur.exScore - (prev?.exScore ?? 0),
      bpiDiff: round2((cur.bpi ?? BPI_FLOOR) - (prev ? prev.bpi ?? BPI_FLOOR : BPI_FLOOR)),
      overtaken: overtaken.get(chartId) ?? [],
    });
  }
  entries.sort((a, b) => b.bpiDiff - a.bpiDiff || a.title.localeCompare(b.title));
  return { entries, firstAt, lastAt };
}

/**
 * Rivals overtaken = users I follow (public, or private with an approved follow) whose best EX
 * as of the end of the period (by import time) lies between my best before and after it.
 */
async function rivalsOvertaken(
  db: Db,
  userId: string,
  version: string,
  charts: Set<number>,
  before: Map<number, ReplayBest>,
  after: Map<number, ReplayBest>,
  at: Date | null,
): Promise<Map<number, OvertakenData[]>> {
  const out = new Map<number, OvertakenData[]>();
  if (!charts.size || !at) return out;
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

/** One batch with its scores (current vs before the batch) and the rivals overtaken (owner only). */
export async function batchDetail(db: Db, cat: Lookup, userId: string, batchId: string, viewerIsOwner: boolean) {
  const batch = await db.importBatch.findFirst({ where: { id: batchId, userId } });
  if (!batch) throw notFound('Batch not found.');
  const { entries } = await periodEntries(db, cat, userId, batch.version, (p) => p.batchId === batchId, viewerIsOwner);
  const [prev, next] = await Promise.all([
    db.importBatch.findFirst({ where: { userId, version: batch.version, createdAt: { lt: batch.createdAt } }, orderBy: { createdAt: 'desc' }, select: { id: true } }),
    db.importBatch.findFirst({ where: { userId, version: batch.version, createdAt: { gt: batch.createdAt } }, orderBy: { createdAt: 'asc' }, select: { id: true } }),
  ]);
  const rivals = new Map<string, { rivalUserId: string; rivalName: string; count: number }>();
  for (const e of entries) for (const o of e.overtaken) rivals.set(o.rivalUserId, { rivalUserId: o.rivalUserId, rivalName: o.rivalName, count: (rivals.get(o.rivalUserId)?.count ?? 0) + 1 });
  return {
    id: batch.id,
    version: batch.version,
    source: batch.source as string,
    createdAt: batch.createdAt,
    previousTotalBpi: batch.previousTotalBpi ?? BPI_FLOOR,
    totalBpi: batch.totalBpi ?? BPI_FLOOR,
    scores: entries,
    rivalsOvertaken: [...rivals.values()],
    prevBatchId: prev?.id ?? null,
    nextBatchId: next?.id ?? null,
  };
}

/** JST range of a day, ISO week (Mon–Sun) or month containing `date` (YYYY-MM-DD), as UTC instants. */
export function jstRange(date: string, unit: string): { start: Date; end: Date } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw badInput('date must be YYYY-MM-DD', [{ code: 'invalid_date', path: ['date'], message: 'date must be YYYY-MM-DD' }]);
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
    throw badInput('unit must be day, week or month', [{ code: 'invalid_value', path: ['unit'], message: 'unit must be day, week or month' }]);
  }
  const off = 9 * 3600_000;
  return { start: new Date(s.getTime() - off), end: new Date(e.getTime() - off - 1) };
}

/** Score details of a day/week/month, grouped by import time (createdAt) or play time (playedAt). */
export async function scoreDetails(db: Db, cat: Lookup, userId: string, version: string, date: string, unit: string, groupedBy: string, viewerIsOwner: boolean) {
  if (!['createdAt', 'playedAt'].includes(groupedBy)) throw badInput('groupedBy must be createdAt or playedAt', [{ code: 'invalid_value', path: ['groupedBy'], message: 'groupedBy must be createdAt or playedAt' }]);
  const { start, end } = jstRange(date, unit);
  const inRange = (p: PlayRow) => {
    const t = (groupedBy === 'createdAt' ? p.createdAt : p.playedAt).getTime();
    return t >= start.getTime() && t <= end.getTime();
  };
  const { entries } = await periodEntries(db, cat, userId, version, inRange, viewerIsOwner, groupedBy === 'playedAt' ? 'playedAt' : 'createdAt');
  const batchCount = groupedBy === 'createdAt' ? await db.importBatch.count({ where: { userId, version, createdAt: { gte: start, lte: end } } }) : 0;
  // total BPI at the end of the period (replay of plays up to then, the one total definition)
  const plays = (await loadPlays(db, { userId, version })).filter((p) => (groupedBy === 'createdAt' ? p.createdAt : p.playedAt) <= end);
  const bests = replay(groupedBy === 'createdAt' ? plays : [...plays].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id));
  const total = computeTotal(cat, version, new Map([...bests].map(([k, b]) => [k, b.bpi])));
  return { start, end, unit, groupedBy, label: date, totalBpi: total.totalBpi, batchCount, scores: entries };
}

/** My bests in `version` against the nearest earlier version with data (domain-scores §5.4). */
export async function versionSummary(db: Db, cat: Lookup, userId: string, version: string) {
  const idx = versionIndex(version);
  const have = new Set((await db.bestScore.groupBy({ by: ['version'], where: { userId } })).map((r) => r.version));
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
    entries: await versionComparison(db, cat, userId, version, compare),
  };
}

/**
 * Rebuilds the derived state of one player and version from the stored plays, in `tx`: BestScore
 * (per-field bests), the totals stored on every batch (replayed in import order with the BPIs
 * stored on the plays, from `fromBatchCreatedAt` on) and the current total (the bests' BPIs under
 * the current definitions).
 */
export async function rebuildDerived(tx: Db, cat: Lookup, userId: string, version: string, fromBatchCreatedAt?: Date): Promise<void> {
  const [plays, batches] = await Promise.all([
    loadPlays(tx, { userId, version }),
    tx.importBatch.findMany({ where: { userId, version }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, createdAt: true } }),
  ]);
  const setIds = totalSetIds(cat, version);
  const byBatch = new Map<string, PlayRow[]>();
  for (const p of plays) {
    const list = byBatch.get(p.batchId);
    if (list) list.push(p);
    else byBatch.set(p.batchId, [p]);
  }
  const bests = new Map<number, ReplayBest>();
  let prevTotal = BPI_FLOOR;
  const updates: { id: string; previousTotalBpi: number; totalBpi: number }[] = [];
  for (const b of batches) {
    replay(byBatch.get(b.id) ?? [], bests);
    const t = computeTotal(cat, version, new Map([...bests].map(([k, v]) => [k, v.bpi])), setIds).totalBpi;
    if (!fromBatchCreatedAt || b.createdAt >= fromBatchCreatedAt) updates.push({ id: b.id, previousTotalBpi: prevTotal, totalBpi: t });
    prevTotal = t;
  }
  if (updates.length) {
    await tx.$executeRawUnsafe(
      `UPDATE "ImportBatch" b SET "previousTotalBpi" = x."previousTotalBpi", "totalBpi" = x."totalBpi"
         FROM jsonb_to_recordset($1::jsonb) AS x("id" text, "previousTotalBpi" double precision, "totalBpi" double precision) WHERE b."id" = x."id"`,
      JSON.stringify(updates),
    );
  }
  await tx.bestScore.deleteMany({ where: { userId, version } });
  if (bests.size) {
    await tx.bestScore.createMany({
      data: [...bests].map(([chartId, b]) => ({
        userId,
        version,
        chartId,
        exScore: b.exScore,
        exScoreId: b.exScoreId,
        clearLamp: b.clearLamp,
        clearLampId: b.clearLampId,
        missCount: b.missCount,
        missCountId: b.missCountId,
        playedAt: b.playedAt,
      })),
    });
  }
  const current = bestBpis(cat, bests);
  await storeTotals(tx, version, new Map([[userId, computeTotal(cat, version, current, setIds)]]));
}

/** Deletes one batch of the owner (its plays go with it) and recomputes bests and later totals. */
export async function deleteBatch(db: Db, cat: Lookup, events: EventBus | undefined, userId: string, batchId: string) {
  const result = await db.$transaction(
    async (tx) => {
      await lockPlayer(tx, userId);
      const batch = await tx.importBatch.findFirst({ where: { id: batchId, userId } });
      if (!batch) throw notFound('Batch not found.');
      await tx.importBatch.delete({ where: { id: batchId } });
      await rebuildDerived(tx as Db, cat, userId, batch.version, batch.createdAt);
      return batch;
    },
    { timeout: 60_000 },
  );
  events?.emit('scores.batchDeleted', { userId, version: result.version, batchId });
  return { batchId, version: result.version, message: 'Batch deleted successfully.' };
}

export { jstDate };
