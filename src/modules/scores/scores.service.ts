/**
 * Score reads (per player): bests at a point in time, chart history, all difficulties, best
 * ever, version comparison, unplayed charts, recommended (weapons/potential), total BPI history.
 * Charts come from the in-memory catalogue (current definitions); no GraphQL types here.
 */
import type { Db } from '../../db/client';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { BPI_LEVELS, ClearLamp, Difficulty, isGameVersion, LAMP_LABEL, LATEST_VERSION, lampFromLabel } from '../../domain/constants';
import { applyPlay, type Best } from '../../domain/scores';
import { availableIn } from '../../domain/totals';
import { badInput, type ErrorIssue } from '../../errors';
import type { CatalogueChart } from '../songs/songs.catalogue';
import { computeTotal, totalSetIds, type ChartLookup } from './totals.service';
import type { ScoreSource } from './scores.loaders';

export type Lookup = ChartLookup;

export function resolveVersion(version: string | null | undefined, field = 'version'): string {
  if (version === null || version === undefined) return LATEST_VERSION;
  if (!isGameVersion(version)) throw badInput(`Unknown game version ${JSON.stringify(version)}`, [{ code: 'invalid_enum_value', path: [field], message: 'Unknown game version' }]);
  return version;
}

export function chartFields(c: CatalogueChart) {
  return {
    chartId: c.id,
    songId: c.songId,
    title: c.title,
    difficulty: c.difficulty,
    level: c.level,
    notes: c.notes,
    bpm: c.bpm,
    releasedVersion: c.releasedVersion,
    wrScore: c.definition?.wr ?? null,
    kaidenAvg: c.definition?.kaidenAvg ?? null,
    coef: c.definition?.coef ?? null,
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

const matches = (c: CatalogueChart, f: ChartFilter) =>
  (!f.levels?.length || f.levels.includes(c.level)) && (!f.difficulties?.length || f.difficulties.includes(c.difficulty));

/** Default order of score lists: level desc, then title. */
export const byLevelTitle = (a: ChartFieldsData, b: ChartFieldsData) => b.level - a.level || a.title.localeCompare(b.title) || a.chartId - b.chartId;

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

const PLAY_SELECT = { id: true, chartId: true, version: true, batchId: true, exScore: true, clearLamp: true, missCount: true, bpi: true, playedAt: true, createdAt: true } as const;

export function loadPlays(db: Db, where: { userId: string; version?: string; createdAt?: { lte: Date }; chartId?: { in: number[] } | number }): Promise<PlayRow[]> {
  return db.score.findMany({ where, select: PLAY_SELECT, orderBy: { id: 'asc' } });
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

function entry(c: CatalogueChart, version: string, b: ReplayBest): EntryData {
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

type StoredBest = Awaited<ReturnType<ScoreSource['bests']>>[number];

/** The player's current BestScore rows in a version (through the request's loader when there is one). */
function currentBests(db: Db, userId: string, version: string, src?: ScoreSource): Promise<StoredBest[]> {
  return src ? src.bests(userId, version) : db.bestScore.findMany({ where: { userId, version } });
}

/** A stored best (BestScore row) with its BPI: the EX score's under the chart's current definition. */
export function withCurrentBpi<T extends { chartId: number; exScore: number }>(cat: Lookup, b: T): T & { bpi: number | null } {
  return { ...b, bpi: cat.currentBpi(b.chartId, b.exScore) };
}

/**
 * The player's bests in a version: now = BestScore, BPI under the current definitions; asOf =
 * replayed from the plays imported by then, with the BPI stored on the best play (its definition).
 */
export async function bestScores(db: Db, cat: Lookup, userId: string, version: string, filter: ChartFilter = {}, asOf?: Date | null, src?: ScoreSource): Promise<EntryData[]> {
  let bests: Map<number, ReplayBest>;
  if (asOf) {
    bests = replay(await loadPlays(db, { userId, version, createdAt: { lte: asOf } }));
  } else {
    bests = new Map((await currentBests(db, userId, version, src)).map((r) => [r.chartId, withCurrentBpi(cat, r)]));
  }
  const out: EntryData[] = [];
  for (const [chartId, b] of bests) {
    const c = cat.chart(chartId);
    if (c && matches(c, filter)) out.push(entry(c, version, b));
  }
  return out.sort(byLevelTitle);
}

/** Per chart, the most recently played best over all versions (every difficulty). */
export async function allDifficultyScores(db: Db, cat: Lookup, userId: string, filter: ChartFilter): Promise<EntryData[]> {
  const rows = await db.bestScore.findMany({ where: { userId }, orderBy: { playedAt: 'asc' } });
  const latest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) latest.set(r.chartId, r);
  const out: EntryData[] = [];
  for (const r of latest.values()) {
    const c = cat.chart(r.chartId);
    if (c && matches(c, filter)) out.push(entry(c, r.version, withCurrentBpi(cat, r)));
  }
  return out.sort(byLevelTitle);
}

export function playData(cat: Lookup, p: PlayRow) {
  const c = cat.chart(p.chartId);
  return { ...p, title: c?.title ?? '', difficulty: c?.difficulty ?? Difficulty.ANOTHER, level: c?.level ?? 0 };
}

/** Every stored play of one chart (all versions), newest play first. */
export async function chartHistory(db: Db, cat: Lookup, userId: string, chartIds: number[]) {
  const plays = await db.score.findMany({ where: { userId, chartId: { in: chartIds } }, select: PLAY_SELECT, orderBy: [{ playedAt: 'desc' }, { id: 'desc' }] });
  return plays.map((p) => playData(cat, p));
}

/** Per chart, the best EX over versions (optionally excluding the current one). */
export async function bestEver(db: Db, cat: Lookup, userId: string, currentVersion: string, excludeCurrent: boolean) {
  const rows = await db.bestScore.findMany({
    where: { userId, ...(excludeCurrent ? { version: { not: currentVersion } } : {}) },
    orderBy: [{ exScore: 'desc' }, { playedAt: 'desc' }],
  });
  const best = new Map<number, (typeof rows)[number]>();
  for (const r of rows) if (!best.has(r.chartId)) best.set(r.chartId, r);
  const out = [];
  for (const r of best.values()) {
    const c = cat.chart(r.chartId);
    if (c) out.push({ ...chartFields(c), bestExScore: r.exScore, bestBpi: cat.currentBpi(r.chartId, r.exScore), bestVersion: r.version });
  }
  return out.sort(byLevelTitle);
}

const snapshot = (b: { exScore: number; bpi: number | null; clearLamp: ClearLamp | null; missCount: number | null; playedAt: Date | null }) => ({
  exScore: b.exScore,
  bpi: b.bpi,
  clearLamp: b.clearLamp,
  missCount: b.missCount,
  playedAt: b.playedAt,
});

/** My bests in `currentVersion` against `targetVersion` (charts with at least one side). */
export async function versionComparison(db: Db, cat: Lookup, userId: string, currentVersion: string, targetVersion: string) {
  if (currentVersion === targetVersion) {
    throw badInput('currentVersion and targetVersion must differ.', [{ code: 'custom', path: ['targetVersion'], message: 'currentVersion and targetVersion must differ.' }]);
  }
  const rows = (await db.bestScore.findMany({ where: { userId, version: { in: [currentVersion, targetVersion] } } })).map((r) => withCurrentBpi(cat, r));
  const cur = new Map(rows.filter((r) => r.version === currentVersion).map((r) => [r.chartId, r]));
  const prev = new Map(rows.filter((r) => r.version === targetVersion).map((r) => [r.chartId, r]));
  const out = [];
  for (const chartId of new Set([...cur.keys(), ...prev.keys()])) {
    const c = cat.chart(chartId);
    if (!c || !c.definition) continue;
    if (currentVersion !== 'INF' && !availableIn(c, currentVersion) && !prev.has(chartId)) continue;
    const a = cur.get(chartId);
    const b = prev.get(chartId);
    out.push({
      ...chartFields(c),
      current: a ? snapshot(a) : null,
      previous: b ? snapshot(b) : null,
      exDiff: a ? a.exScore - (b?.exScore ?? 0) : 0,
      bpiDiff: a ? round2((a.bpi ?? BPI_FLOOR) - (b ? b.bpi ?? BPI_FLOOR : BPI_FLOOR)) : 0,
    });
  }
  return out.sort(byLevelTitle);
}

/** BPI charts (with a current definition) available in the version that the player has not played there. */
export async function unplayed(db: Db, cat: Lookup, userId: string, version: string, filter: ChartFilter, src?: ScoreSource) {
  const rows = src ? await src.bests(userId, version) : await db.bestScore.findMany({ where: { userId, version }, select: { chartId: true } });
  const played = new Set(rows.map((r) => r.chartId));
  const out = [];
  for (const c of cat.charts()) {
    if (c.playStyle !== 'SP' || !c.definition || played.has(c.id) || !availableIn(c, version) || !matches(c, filter)) continue;
    out.push(chartFields(c));
  }
  return out.sort(byLevelTitle);
}

// ───────────── recommended (domain-stats §3.8) ─────────────

export interface RecommendedQuery {
  version?: string | null;
  level?: readonly number[] | null;
  difficulty?: readonly string[] | null;
  limit?: number | null;
  offset?: number | null;
}

/** Validates the recommended query; out-of-range values are a 400, not a silent slice. */
export function parseRecommendedQuery(q: RecommendedQuery) {
  const issues: ErrorIssue[] = [];
  const version = q.version === null || q.version === undefined ? LATEST_VERSION : q.version;
  if (!isGameVersion(version)) issues.push({ code: 'invalid_enum_value', path: ['version'], message: 'Unknown game version' });
  const limit = q.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) issues.push({ code: 'out_of_range', path: ['limit'], message: 'limit must be an integer between 1 and 100' });
  const offset = q.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) issues.push({ code: 'out_of_range', path: ['offset'], message: 'offset must be an integer ≥ 0' });
  const levels = [...(q.level ?? [])];
  for (const l of levels) if (!(BPI_LEVELS as readonly number[]).includes(l)) issues.push({ code: 'invalid_value', path: ['level'], message: 'level must be 11 or 12' });
  const difficulties = [...(q.difficulty ?? [])] as Difficulty[];
  for (const d of difficulties) {
    if (!['HYPER', 'ANOTHER', 'LEGGENDARIA'].includes(d)) issues.push({ code: 'invalid_value', path: ['difficulty'], message: 'difficulty must be HYPER, ANOTHER or LEGGENDARIA' });
  }
  if (issues.length) throw badInput(issues[0].message, issues);
  return { version, limit, offset, levels, difficulties };
}

/**
 * Weapons (charts most above the player's total BPI) and potential (most below), over the
 * player's bests on BPI charts. A chart without a BPI counts as -15 (not 0 as the reference).
 */
export async function recommended(db: Db, cat: Lookup, userId: string, q: RecommendedQuery, src?: ScoreSource) {
  const { version, limit, offset, levels, difficulties } = parseRecommendedQuery(q);
  const filter: ChartFilter = { levels: levels.length ? levels : [...BPI_LEVELS], difficulties };
  const [stored, rows] = await Promise.all([
    src ? src.totalBpi(userId, version) : db.playerVersionStatus.findUnique({ where: { userId_version: { userId, version } }, select: { totalBpi: true } }).then((r) => r?.totalBpi ?? null),
    currentBests(db, userId, version, src),
  ]);
  const total = stored ?? BPI_FLOOR;
  // Rank light candidates; only the rows of the two returned pages become full entries (a nested
  // read asks this for every follower, usually for a handful of rows out of hundreds).
  const scored: { c: CatalogueChart; b: StoredBest; bpi: number | null; bpiDiff: number }[] = [];
  for (const b of rows) {
    const c = cat.chart(b.chartId);
    if (!c?.definition || !matches(c, filter)) continue;
    const bpi = cat.currentBpi(b.chartId, b.exScore);
    scored.push({ c, b, bpi, bpiDiff: round2((bpi ?? BPI_FLOOR) - total) });
  }
  type Scored = (typeof scored)[number];
  const tie = (a: Scored, b: Scored) => a.c.title.localeCompare(b.c.title) || a.c.id - b.c.id;
  const page = (sorted: Scored[]) =>
    sorted.slice(offset, offset + limit).map(({ c, b, bpi, bpiDiff }) => ({ ...entry(c, version, { ...b, bpi }), logId: b.exScoreId, scoreAt: b.playedAt, bpiDiff }));
  return {
    totalBpi: total,
    weapons: { data: page([...scored].sort((a, b) => b.bpiDiff - a.bpiDiff || tie(a, b))), total: scored.length },
    potential: { data: page([...scored].sort((a, b) => a.bpiDiff - b.bpiDiff || tie(a, b))), total: scored.length },
  };
}

// ───────────── total BPI history (domain-stats §3.1) ─────────────

const JST_MS = 9 * 3600_000;
export const jstDate = (d: Date) => new Date(d.getTime() + JST_MS).toISOString().slice(0, 10);

function weekKey(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(d.getTime() - dow * 86400_000).toISOString().slice(0, 10);
}

/**
 * Replays the player's plays of a version by play time, one point per JST play day: the total
 * BPI (the one definition, totals.service) after that day's plays.
 */
export function playDayTotals(cat: Lookup, version: string, plays: readonly PlayRow[]) {
  const setIds = totalSetIds(cat, version);
  const sorted = [...plays].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id);
  const bests = new Map<number, ReplayBest>();
  const days: { date: string; totalBpi: number; count: number; plays: PlayRow[]; lastPlayedAt: Date }[] = [];
  let i = 0;
  while (i < sorted.length) {
    const date = jstDate(sorted[i].playedAt);
    const dayPlays: PlayRow[] = [];
    while (i < sorted.length && jstDate(sorted[i].playedAt) === date) dayPlays.push(sorted[i++]);
    replay(dayPlays, bests);
    const bpis = new Map<number, number | null>([...bests].map(([k, b]) => [k, b.bpi]));
    const t = computeTotal(cat, version, bpis, setIds);
    days.push({ date, totalBpi: t.totalBpi, count: t.playedCount, plays: dayPlays, lastPlayedAt: dayPlays[dayPlays.length - 1].playedAt });
  }
  return days;
}

export async function totalBpiHistory(db: Db, cat: Lookup, userId: string, version: string, groupBy: string) {
  if (!['day', 'week', 'month'].includes(groupBy)) throw badInput('groupBy must be day, week or month', [{ code: 'invalid_value', path: ['groupBy'], message: 'groupBy must be day, week or month' }]);
  const played = playDayTotals(cat, version, await loadPlays(db, { userId, version }));
  // every calendar day from the first to the last play day (days without plays carry the total)
  const days: { date: string; totalBpi: number; count: number; plays: unknown[] }[] = [];
  for (const d of played) {
    const last = days[days.length - 1];
    if (last) {
      for (let t = Date.parse(`${last.date}T00:00:00Z`) + 86400_000; t < Date.parse(`${d.date}T00:00:00Z`); t += 86400_000) {
        days.push({ date: new Date(t).toISOString().slice(0, 10), totalBpi: last.totalBpi, count: last.count, plays: [] });
      }
    }
    days.push(d);
  }
  const out = new Map<string, { date: string; totalBpi: number; count: number; updated: number }>();
  for (const d of days) {
    const key = groupBy === 'day' ? d.date : groupBy === 'month' ? d.date.slice(0, 7) : weekKey(d.date);
    const prev = out.get(key);
    out.set(key, { date: key, totalBpi: d.totalBpi, count: d.count, updated: (prev?.updated ?? 0) + d.plays.length });
  }
  return [...out.values()];
}

// ───────────── normalized rows (GraphQL importScores) ─────────────

export function lampOf(value: string): ClearLamp | undefined {
  const v = value.trim().toUpperCase();
  return (Object.values(ClearLamp) as string[]).includes(v) ? (v as ClearLamp) : lampFromLabel(v);
}
