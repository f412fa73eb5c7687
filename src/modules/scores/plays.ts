/**
 * Plays and bests as the reads of several areas see them (scores, logs, stats, rivals): chart
 * facts on entries, the replay of plays into per-field bests, play days. Pure functions over the
 * in-memory catalogue, and the one read of a player's plays.
 */
import type { Db } from '../../db/client';
import { ChunkSizer, stepsInLoopTurns, yieldToEventLoop } from '../../db/yield';
import { ClearLamp, Difficulty, LAMP_LABEL, lampFromLabel } from '../../domain/constants';
import { applyPlay, type Best } from '../../domain/scores';
import type { CatalogueChart } from '../catalogue/catalogue';
import { computeTotal, totalSetIds, type ChartLookup, type DbLike } from './totals.service';

export type Lookup = ChartLookup;

export function chartFields(c: CatalogueChart) {
  return {
    chartId: c.id,
    songId: c.songId,
    title: c.title,
    difficulty: c.difficulty,
    level: c.level,
    notes: c.notes > 0 ? c.notes : null, // 0 in the catalogue = unknown
    bpm: c.bpm,
    releasedVersion: c.releasedVersion,
    wrScore: c.definition?.wr ?? null,
    kaidenAvg: c.definition?.kaidenAvg ?? null,
    coef: c.definition?.coef ?? null,
    radarTop: c.radarCategory,
  };
}
export type ChartFieldsData = ReturnType<typeof chartFields>;

export interface EntryData extends ChartFieldsData {
  version: string;
  exScore: number;
  exScoreId: number;
  bpi: number | null;
  clearLamp: ClearLamp | null;
  clearState: string | null;
  missCount: number | null;
  playedAt: Date;
}

export interface ChartFilter {
  levels?: readonly number[] | null;
  difficulties?: readonly Difficulty[] | null;
}

export const matchesFilter = (c: CatalogueChart, f: ChartFilter) =>
  (!f.levels?.length || f.levels.includes(c.level)) &&
  (!f.difficulties?.length || f.difficulties.includes(c.difficulty));

/** Default order of score lists: level desc, then title. */
export const byLevelTitle = (a: ChartFieldsData, b: ChartFieldsData) =>
  b.level - a.level || a.title.localeCompare(b.title) || a.chartId - b.chartId;

export type PlayRow = {
  id: number;
  chartId: number;
  version: string;
  batchId: string;
  exScore: number;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  bpi: number | null;
  playedAt: Date;
  createdAt: Date;
};

export const PLAY_SELECT = {
  id: true,
  chartId: true,
  version: true,
  batchId: true,
  exScore: true,
  clearLamp: true,
  missCount: true,
  bpi: true,
  playedAt: true,
  createdAt: true,
} as const;

/** A player's plays in id (import) order. */
export function loadPlays(
  db: Db | DbLike,
  where: { userId: string; version?: string; createdAt?: { lte: Date }; chartId?: { in: number[] } | number },
): Promise<PlayRow[]> {
  return db.score.findMany({ where, select: PLAY_SELECT, orderBy: { id: 'asc' } });
}

/**
 * loadPlays in slices (`slice` plays first, then sized by their time) with the event loop let
 * through between them: the same list, but no one statement reads tens of thousands of rows
 * (PGlite runs each statement on the main thread; a 20,000-play read held it seconds on a busy
 * machine). Inside `tx`, through a cursor without an order, put in id order at the end: each
 * FETCH goes on with the same scan, so a slice costs its own rows only. (Pages by id, or by
 * chart and id, each read all the player's plays again: the plays a migration has just written
 * have no statistics yet, and the planner takes an index of the player that does not give the
 * page's order — every page scanned and filtered, or sorted, all ~20,000 plays, 0.1–0.4 s a page
 * on a busy machine.)
 */
export async function loadPlaysSliced(
  tx: DbLike,
  where: { userId: string; version: string },
  slice = 500,
): Promise<PlayRow[]> {
  const out: PlayRow[] = [];
  const sizer = new ChunkSizer({ first: slice, min: 50, max: Math.max(slice, 5000) });
  await tx.$executeRawUnsafe(
    `DECLARE "plays_sliced" NO SCROLL CURSOR FOR
       SELECT "id", "chartId", "version", "batchId", "exScore", "clearLamp"::text AS "clearLamp", "missCount", "bpi", "playedAt", "createdAt"
         FROM "Score" WHERE "userId" = $1 AND "version" = $2`,
    where.userId,
    where.version,
  );
  for (;;) {
    const take = sizer.size;
    const t = performance.now();
    const part = await tx.$queryRawUnsafe<PlayRow[]>(`FETCH FORWARD ${take} FROM "plays_sliced"`);
    sizer.took(part.length, performance.now() - t);
    for (const p of part)
      out.push({
        id: Number(p.id),
        chartId: Number(p.chartId),
        version: p.version,
        batchId: p.batchId,
        exScore: Number(p.exScore),
        clearLamp: p.clearLamp,
        missCount: p.missCount === null ? null : Number(p.missCount),
        bpi: p.bpi === null ? null : Number(p.bpi),
        playedAt: new Date(p.playedAt),
        createdAt: new Date(p.createdAt),
      });
    if (part.length < take) break;
    await yieldToEventLoop();
  }
  await tx.$executeRawUnsafe(`CLOSE "plays_sliced"`);
  await yieldToEventLoop();
  return out.sort((x, y) => x.id - y.id);
}

export type ReplayBest = Best & { bpi: number | null };

/** Per-field bests from plays in id order; bpi = the stored BPI of the best EX play. */
export function replay(plays: readonly PlayRow[], into = new Map<number, ReplayBest>()): Map<number, ReplayBest> {
  for (const p of plays) {
    const prev = into.get(p.chartId);
    const next = applyPlay(prev, p);
    into.set(p.chartId, { ...next, bpi: next.exScoreId === p.id ? p.bpi : prev!.bpi });
  }
  return into;
}

export function entry(c: CatalogueChart, version: string, b: ReplayBest): EntryData {
  return {
    ...chartFields(c),
    version,
    exScore: b.exScore,
    exScoreId: b.exScoreId,
    bpi: b.bpi,
    clearLamp: b.clearLamp,
    clearState: b.clearLamp ? LAMP_LABEL[b.clearLamp] : null,
    missCount: b.missCount,
    playedAt: b.playedAt,
  };
}

/** A stored best (BestScore row) with its BPI: the EX score's under the chart's current definition. */
export function withCurrentBpi<T extends { chartId: number; exScore: number }>(
  cat: Lookup,
  b: T,
): T & { bpi: number | null } {
  return { ...b, bpi: cat.currentBpi(b.chartId, b.exScore) };
}

export function playData(cat: Lookup, p: PlayRow) {
  const c = cat.chart(p.chartId);
  return { ...p, title: c?.title ?? '', difficulty: c?.difficulty ?? Difficulty.ANOTHER, level: c?.level ?? 0 };
}

export const snapshot = (b: {
  exScore: number;
  bpi: number | null;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  playedAt: Date | null;
}) => ({
  exScore: b.exScore,
  bpi: b.bpi,
  clearLamp: b.clearLamp,
  missCount: b.missCount,
  playedAt: b.playedAt,
});

const JST_MS = 9 * 3600_000;
export const jstDate = (d: Date) => new Date(d.getTime() + JST_MS).toISOString().slice(0, 10);

export function weekKey(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(d.getTime() - dow * 86400_000).toISOString().slice(0, 10);
}

/** One JST play day of playDayTotals. */
export interface PlayDay {
  date: string;
  totalBpi: number;
  count: number;
  plays: PlayRow[];
  lastPlayedAt: Date;
}

/**
 * Replays the player's plays of a version by play time, one point per JST play day: the total
 * BPI (the one definition, totals.service) after that day's plays. Each day updates the BPIs of the
 * charts it played and recomputes the total over the best so far of each chart (a long history is
 * thousands of them): the days run in turns of the event loop (stepsInLoopTurns), never in one
 * block (issue #27).
 */
export async function playDayTotals(cat: Lookup, version: string, plays: readonly PlayRow[]): Promise<PlayDay[]> {
  const setIds = totalSetIds(cat, version);
  const sorted = [...plays].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id);
  const bests = new Map<number, ReplayBest>();
  /** chartId → the BPI of its best so far: kept up to date day by day, not copied from `bests` each day. */
  const bpis = new Map<number, number | null>();
  const days: PlayDay[] = [];
  let i = 0;
  const day = () => {
    const date = jstDate(sorted[i].playedAt);
    const dayPlays: PlayRow[] = [];
    while (i < sorted.length && jstDate(sorted[i].playedAt) === date) dayPlays.push(sorted[i++]);
    replay(dayPlays, bests);
    // only the charts played that day change (in the order replay first met them, as in `bests`)
    for (const p of dayPlays) bpis.set(p.chartId, bests.get(p.chartId)!.bpi);
    const t = computeTotal(cat, version, bpis, setIds);
    days.push({
      date,
      totalBpi: t.totalBpi,
      count: t.playedCount,
      plays: dayPlays,
      lastPlayedAt: dayPlays[dayPlays.length - 1].playedAt,
    });
    return i >= sorted.length;
  };
  if (sorted.length) await stepsInLoopTurns(day);
  return days;
}

export function lampOf(value: string): ClearLamp | undefined {
  const v = value.trim().toUpperCase();
  return (Object.values(ClearLamp) as string[]).includes(v) ? (v as ClearLamp) : lampFromLabel(v);
}
