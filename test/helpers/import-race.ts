/**
 * Concurrent-import fixtures and state comparison (test/integration/scores/concurrent-imports,
 * test/integration/cluster/many-writers): overlapping row sets for several players, the state an
 * import leaves (bests, totals, rank blocks, radar rows, notifications) read back in a form that
 * compares across players, and the per-chart oracle the bests must equal.
 */
import type { Db } from '../../src/db/client';

/** Lamps in order (wire strings; a later one is better). */
export const LAMPS = ['FAILED', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR'] as const;
const LAMP_ENUM: Record<string, string> = {
  FAILED: 'FAILED',
  'EASY CLEAR': 'EASY_CLEAR',
  CLEAR: 'CLEAR',
  'HARD CLEAR': 'HARD_CLEAR',
};

export interface RaceRow {
  title: string;
  playStyle: 'SP';
  difficulty: string;
  level: number;
  exScore: number;
  clearState: string;
  missCount: number | null;
  lastPlayed: string;
}

export interface RaceChart {
  title: string;
  difficulty: string;
  level: number;
  /** max EX = 2 × notes (unknown charts: a bound chosen for the fixture) */
  maxEx: number;
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One import's rows: each chart of `charts` with probability 0.7 (so exports of one player
 * overlap on most charts, not all), a random EX below the chart's maximum, lamp and misses.
 */
export function raceRows(charts: readonly RaceChart[], seed: number): RaceRow[] {
  const r = rng(seed);
  const rows: RaceRow[] = [];
  for (const c of charts) {
    if (r() > 0.7) continue;
    rows.push({
      title: c.title,
      playStyle: 'SP',
      difficulty: c.difficulty,
      level: c.level,
      exScore: 1 + Math.floor(r() * (c.maxEx - 1)),
      clearState: LAMPS[Math.floor(r() * LAMPS.length)],
      missCount: r() < 0.2 ? null : Math.floor(r() * 80),
      lastPlayed: `2025-06-0${1 + Math.floor(r() * 8)} 21:${String(10 + Math.floor(r() * 40))}`,
    });
  }
  return rows;
}

/**
 * The bests a set of imports must leave, per chart key "title|difficulty": the maximum EX, the
 * best lamp (LAMPS order) and the fewest misses (null misses ignored) over every row.
 */
export function expectedBests(
  imports: readonly (readonly RaceRow[])[],
): Map<string, { exScore: number; clearLamp: string; missCount: number | null }> {
  const out = new Map<string, { exScore: number; clearLamp: string; missCount: number | null }>();
  for (const rows of imports) {
    for (const row of rows) {
      const k = `${row.title}|${row.difficulty}`;
      const b = out.get(k);
      const lamp = LAMP_ENUM[row.clearState];
      if (!b) {
        out.set(k, { exScore: row.exScore, clearLamp: lamp, missCount: row.missCount });
        continue;
      }
      b.exScore = Math.max(b.exScore, row.exScore);
      const rank = (wire: string) => LAMPS.indexOf(wire as (typeof LAMPS)[number]);
      const current = Object.keys(LAMP_ENUM).find((w) => LAMP_ENUM[w] === b.clearLamp)!;
      if (rank(row.clearState) > rank(current)) b.clearLamp = lamp;
      if (row.missCount !== null)
        b.missCount = b.missCount === null ? row.missCount : Math.min(b.missCount, row.missCount);
    }
  }
  return out;
}

/** A player's bests in `version` by chart key "title|difficulty" (values only: play ids differ between runs). */
export async function bestsOf(db: Db, userId: string, version: string) {
  const rows = await db.bestScore.findMany({
    where: { userId, version },
    select: {
      exScore: true,
      clearLamp: true,
      missCount: true,
      chart: { select: { difficulty: true, song: { select: { title: true } } } },
    },
  });
  return new Map(
    rows.map((b) => [
      `${b.chart.song.title}|${b.chart.difficulty}`,
      { exScore: b.exScore, clearLamp: b.clearLamp, missCount: b.missCount },
    ]),
  );
}

/** Stored total, radar row and the number of plays and batches of a player. */
export async function derivedOf(db: Db, userId: string, version: string) {
  const status = await db.playerVersionStatus.findUnique({
    where: { userId_version: { userId, version } },
    select: { totalBpi: true, playedCount: true },
  });
  const radar = await db.radarCache.findUnique({
    where: { userId_version: { userId, version } },
    select: { notes: true, chord: true, peak: true, charge: true, scratch: true, soflan: true },
  });
  return { status, radar };
}

/** The rank blocks as stored, and as `chart_rank_rebuild()` recomputes them from the bests (the stored ones are restored). */
export async function rankBlocksVsRebuild(db: Db): Promise<{ stored: string[]; rebuilt: string[] }> {
  const read = async (q: Pick<Db, '$queryRawUnsafe'>) =>
    (
      await q.$queryRawUnsafe<{ k: string }[]>(
        // rows of zeros (every count moved elsewhere) say the same as no row
        `SELECT concat_ws('|', "chartId", "version", "block", array_to_string("above", ',')) AS k FROM "ChartRankBlock"
          WHERE EXISTS (SELECT 1 FROM unnest("above") AS a WHERE a <> 0) ORDER BY 1`,
      )
    ).map((r) => r.k);
  const stored = await read(db);
  let rebuilt: string[] = [];
  await db
    .$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT "chart_rank_rebuild"()) AS r');
      rebuilt = await read(tx);
      throw new RollBack();
    })
    .catch((err) => {
      if (!(err instanceof RollBack)) throw err;
    });
  return { stored, rebuilt };
}
class RollBack extends Error {}

export const IMPORT_ROWS = `mutation($userId: ID, $version: GameVersion!, $rows: [ScoreRowInput!]!) {
  importScores(userId: $userId, version: $version, rows: $rows) { batchId updatedCount learnedCharts notFound { title } problems { reason } }
}`;
