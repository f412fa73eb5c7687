/**
 * The ONE definition of the chart set N behind a player's total BPI, used by every code path
 * (import, recompute jobs, history, stats):
 *
 *   SP charts of level 12 that have a current BPI definition and are available in the version:
 *   released at or before it (releasedVersion ≤ version, unknown release = available) and not
 *   removed at or before it (removedInVersion null, or a later version). A removal whose version
 *   is unknown counts as removed in every version. INF (INFINITAS) has its own song list, so
 *   no release/removal filter applies to it.
 *
 * Played charts contribute their best score's BPI (null, e.g. no definition → -15); unplayed
 * charts of the set contribute -15 (the formula in src/domain/bpi totalBpi).
 */
import { totalBpi } from './bpi';
import { PlayStyle } from './constants';

export interface TotalSetChart {
  playStyle: string;
  level: number;
  releasedVersion: number | null;
  removedInVersion: string | null;
  definition: unknown;
}

export const TOTAL_LEVEL = 12;

/** Is the chart in the game in this version? (release and removal) */
export function availableIn(
  chart: Pick<TotalSetChart, 'releasedVersion' | 'removedInVersion'>,
  version: string,
): boolean {
  if (version === 'INF') return true;
  const v = Number(version);
  if (!Number.isFinite(v)) return false;
  if (chart.releasedVersion !== null && chart.releasedVersion > v) return false;
  if (chart.removedInVersion !== null) {
    const r = Number(chart.removedInVersion);
    if (!Number.isFinite(r) || r <= v) return false;
  }
  return true;
}

export function inTotalSet(chart: TotalSetChart, version: string): boolean {
  return (
    chart.playStyle === PlayStyle.SP &&
    chart.level === TOTAL_LEVEL &&
    chart.definition !== null &&
    availableIn(chart, version)
  );
}

/**
 * Total BPI of one player in one version.
 * @param set charts of the set (inTotalSet), by id
 * @param bestBpi chartId → BPI of the player's best EX score on it (null = no BPI)
 */
export function totalOverSet(
  setIds: ReadonlySet<number>,
  bestBpi: ReadonlyMap<number, number | null>,
): { totalBpi: number; playedCount: number } {
  const values: number[] = [];
  for (const [chartId, bpi] of bestBpi) if (setIds.has(chartId)) values.push(bpi ?? -15);
  return { totalBpi: totalBpi(values, setIds.size), playedCount: values.length };
}
