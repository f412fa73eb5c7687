/**
 * AAA table (docs/domain/stats.md#aaa-table): per chart, the EX score and the BPI needed for AAA and for
 * MAX- (and an optional custom goal) under the current definition, next to the player's best.
 *
 * Needs: the chart source (catalogue: notes, current definition, release/removal) and the
 * player's bests in the version (one read of BestScore for user + version). Without a player
 * (a guest view) pass no bests.
 *
 * Rules:
 * - Charts: SP charts in the query's scope (levels default 11 and 12, difficulties default
 *   HYPER/ANOTHER/LEGGENDARIA) with a current definition that are available in the version
 *   (released ≤ version and not removed; the reference forgets the removal check).
 * - Borders, with m = 2·notes: AAA = ceil(m·8/9), AA = ceil(m·7/9), A = ceil(m·6/9),
 *   MAX- = ceil(m·17/18) (integers, exact);
 *   custom = clamp(ceil(m·ratio) + offset, 0, m).
 * - BPI needed = the single-chart BPI of the border EX under the current definition (null when
 *   the definition gives none). It can exceed 100 when the border is above the world record.
 * - The player: `exScore` / `bpi` of the best (null when unplayed); `diff` = (best EX, 0 when
 *   unplayed) − border (negative = EX still missing); `reached` = diff ≥ 0.
 * - Sorted by level desc, then title (the scores area's order).
 */
import { safeBpi } from '../bpi';
import {
  sortWithTitles,
  scopeCharts,
  type BestInput,
  type ChartFilter,
  type ChartSource,
  type StatsDefinition,
} from './common';
import { borderScore } from './dj-rank-distribution';
import { checkAll, parseNumberIn, type Checked } from './query';

export interface AaaGoal {
  /** 0..1 of the maximum EX score */
  ratio: number;
  /** EX points added to the ratio's border (may be negative) */
  offset: number;
}

export interface AaaTarget {
  exScore: number;
  bpi: number | null;
  /** player's EX (0 when unplayed) − exScore */
  diff: number;
  reached: boolean;
}

export interface AaaRow {
  chartId: number;
  songId: number | null;
  title: string;
  difficulty: string;
  level: number;
  notes: number;
  releasedVersion: number | null;
  maxScore: number;
  aaa: AaaTarget;
  /** AA border ceil(m·7/9) and A border ceil(m·6/9) (the guest table, Query.aaaTable) */
  aa: AaaTarget;
  a: AaaTarget;
  maxMinus: AaaTarget;
  custom: AaaTarget | null;
  exScore: number | null;
  bpi: number | null;
}

export interface AaaTable {
  version: string;
  rows: AaaRow[];
  /** charts listed / AAA reached (MAX- included) / MAX- reached / custom goal reached (null without a goal) */
  summary: { charts: number; aaa: number; maxMinus: number; custom: number | null };
}

/** Custom border: clamp(ceil(m·ratio) + offset, 0, m); a 1e-9 guard keeps 0.9·3000 at 2700. */
export function customBorder(m: number, goal: AaaGoal): number {
  return Math.min(m, Math.max(0, Math.ceil(m * goal.ratio - 1e-9) + goal.offset));
}

/** A border: its EX score and the BPI it is worth. */
type Border = readonly [exScore: number, bpi: number | null];

const borderAt = (ex: number, def: StatsDefinition): Border => [ex, safeBpi(ex, def)];

/**
 * The fixed borders of a definition (AAA, AA, A, MAX-) with their BPI: the same for every player, so
 * remembered per definition object (a catalogue load makes new ones and never changes one; the
 * memo goes with the object). Four BPI formulas per chart of every table were ~1.4 ms of a dashboard.
 */
const fixedBorders = new WeakMap<StatsDefinition, readonly [Border, Border, Border, Border]>();

function bordersOf(def: StatsDefinition): readonly [Border, Border, Border, Border] {
  let b = fixedBorders.get(def);
  if (!b) {
    const m = def.notes * 2;
    const at = (ex: number) => borderAt(ex, def);
    b = [at(borderScore(m, 8, 9)), at(borderScore(m, 7, 9)), at(borderScore(m, 6, 9)), at(borderScore(m, 17, 18))];
    fixedBorders.set(def, b);
  }
  return b;
}

export function aaaTable(
  source: ChartSource,
  version: string,
  filter: ChartFilter,
  bests: Iterable<BestInput> = [],
  goal: AaaGoal | null = null,
): AaaTable {
  const best = new Map<number, number>();
  for (const b of bests) best.set(b.chartId, b.exScore);
  const rows: AaaRow[] = [];
  const summary = { charts: 0, aaa: 0, maxMinus: 0, custom: goal ? 0 : null };
  // byLevelTitle's order (level desc, title, id) with the titles compared by rank
  const charts = sortWithTitles(
    source,
    scopeCharts(source, version, filter),
    (c) => c.title,
    (a, b) => b.level - a.level,
    (a, b) => a.id - b.id,
  );
  for (const c of charts) {
    const def = c.definition!;
    const m = def.notes * 2;
    const ex = best.get(c.id) ?? null;
    // indexed, not destructured: the iterator protocol allocated per row and border
    const target = (b: Border): AaaTarget => {
      const diff = (ex ?? 0) - b[0];
      return { exScore: b[0], bpi: b[1], diff, reached: diff >= 0 };
    };
    const borders = bordersOf(def);
    const row: AaaRow = {
      chartId: c.id,
      songId: c.songId ?? null,
      title: c.title,
      difficulty: c.difficulty,
      level: c.level,
      notes: def.notes,
      releasedVersion: c.releasedVersion,
      maxScore: m,
      aaa: target(borders[0]),
      aa: target(borders[1]),
      a: target(borders[2]),
      maxMinus: target(borders[3]),
      custom: goal ? target(borderAt(customBorder(m, goal), def)) : null,
      exScore: ex,
      bpi: ex === null ? null : source.currentBpi(c.id, ex),
    };
    rows.push(row);
    summary.charts++;
    if (row.aaa.reached) summary.aaa++;
    if (row.maxMinus.reached) summary.maxMinus++;
    if (row.custom?.reached) summary.custom!++;
  }
  return { version, rows, summary };
}

/**
 * The optional custom goal: `ratio` in [0, 1] and `offset` an integer EX adjustment in
 * [-10000, 10000] (default 0). An offset without a ratio is refused (it has nothing to adjust).
 */
export function parseAaaGoal(
  ratio: number | null | undefined,
  offset: number | null | undefined,
  names: [string, string] = ['customGoalRatio', 'customGoalOffset'],
): Checked<AaaGoal | null> {
  const r = checkAll({
    ratio: parseNumberIn(ratio, names[0], 0, 1),
    offset: parseNumberIn(offset, names[1], -10000, 10000),
  });
  if (!r.ok) return r;
  if (r.value.offset !== null && !Number.isInteger(r.value.offset)) {
    return {
      ok: false,
      issues: [{ code: 'invalid_type', path: [names[1]], message: `${names[1]} must be an integer` }],
    };
  }
  if (r.value.ratio === null) {
    return r.value.offset === null
      ? { ok: true, value: null }
      : { ok: false, issues: [{ code: 'custom', path: [names[1]], message: `${names[1]} needs ${names[0]}` }] };
  }
  return { ok: true, value: { ratio: r.value.ratio, offset: r.value.offset ?? 0 } };
}
