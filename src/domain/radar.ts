/**
 * Radar (docs/domain/stats.md#radar): one value per category = total BPI over the player's best BPIs on
 * the charts of that category, with N = played charts of the category + unplayed charts of the
 * category that are valid for the version. Categories come from server-owned data
 * (Chart.radarCategory, imported), never from a list in code. Pure: no I/O.
 */
import { RADAR_CATEGORIES, versionIndex, type RadarCategory } from './constants';
import { BPI_FLOOR, totalBpi } from './bpi';

export type RadarValues = Record<RadarCategory, number>;

export interface RadarChart {
  id: number;
  radarCategory: RadarCategory | null;
}

/**
 * @param charts every chart that may count: those with a category and valid for the version
 * @param bestBpis the player's best BPI per chart id (null BPI = no definition → −15)
 * A category with no played chart is −15 (as the reference).
 */
export function computeRadar(
  charts: Iterable<RadarChart>,
  bestBpis: ReadonlyMap<number, number | null>,
  categoryOf?: (chartId: number) => RadarCategory | null | undefined,
): RadarValues {
  const played = new Map<RadarCategory, number[]>();
  const unplayed = new Map<RadarCategory, number>();
  const seen = new Set<number>();
  for (const c of charts) {
    if (!c.radarCategory || seen.has(c.id)) continue;
    seen.add(c.id);
    if (bestBpis.has(c.id)) {
      const list = played.get(c.radarCategory) ?? [];
      list.push(bestBpis.get(c.id) ?? BPI_FLOOR);
      played.set(c.radarCategory, list);
    } else {
      unplayed.set(c.radarCategory, (unplayed.get(c.radarCategory) ?? 0) + 1);
    }
  }
  // Played charts that are not in the valid list (e.g. removed later) still count as played.
  if (categoryOf) {
    for (const [chartId, bpi] of bestBpis) {
      if (seen.has(chartId)) continue;
      const cat = categoryOf(chartId);
      if (!cat) continue;
      seen.add(chartId);
      const list = played.get(cat) ?? [];
      list.push(bpi ?? BPI_FLOOR);
      played.set(cat, list);
    }
  }
  const out = {} as RadarValues;
  for (const cat of RADAR_CATEGORIES) {
    const p = played.get(cat) ?? [];
    out[cat] = p.length === 0 ? BPI_FLOOR : totalBpi(p, p.length + (unplayed.get(cat) ?? 0));
  }
  return out;
}

/** Does the chart exist in game version v? (released ≤ v and not removed by v; INF: always). */
export function chartInVersion(
  chart: { releasedVersion: number | null; removedInVersion: string | null },
  v: string,
): boolean {
  if (v === 'INF') return true;
  const n = Number(v);
  if (chart.releasedVersion !== null && Number.isFinite(n) && chart.releasedVersion > n) return false;
  if (chart.removedInVersion !== null && chart.removedInVersion !== 'INF') {
    const ri = versionIndex(chart.removedInVersion);
    const vi = versionIndex(v);
    if (ri >= 0 && vi >= 0) return ri > vi;
    const rn = Number(chart.removedInVersion);
    if (Number.isFinite(rn) && Number.isFinite(n)) return rn > n;
  }
  return true;
}
