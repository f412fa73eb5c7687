/**
 * Radar with filters and the songs behind each category (docs/domain/stats.md#radar).
 *
 * Needs: the player's bests in the version (one read of BestScore for user + version) and the
 * chart source (catalogue: radar category, level, difficulty, release/removal, definition).
 *
 * Rules (the values are those of src/domain/radar.ts computeRadar, so `User.compare.radar`
 * and this part agree when no filter is given):
 * - Charts: SP charts with a radar category in the query's scope (levels default 11 and 12,
 *   difficulties default HYPER/ANOTHER/LEGGENDARIA). A played chart counts with its best's BPI
 *   under the current definition (none → −15) — also when it is no longer available in the
 *   version; an unplayed chart counts (as −15) only when it is available in the version.
 * - Per category: N = played + unplayed-available charts; value = total BPI over N; −15 when
 *   no chart of the category was played.
 * - `songs`: every chart counted, played ones with EX and BPI, unplayed ones with EX null and
 *   BPI −15; by BPI desc, then title.
 */
import { BPI_FLOOR } from '../bpi';
import { RADAR_CATEGORIES, type RadarCategory } from '../constants';
import { chartInVersion, computeRadar, type RadarValues } from '../radar';
import { inScope, sortWithTitles, type BestInput, type ChartFilter, type ChartSource } from './common';

export interface RadarSong {
  chartId: number;
  title: string;
  difficulty: string;
  level: number;
  notes: number;
  exScore: number | null;
  bpi: number;
}

export interface RadarCategoryResult {
  category: RadarCategory;
  totalBpi: number;
  playedCount: number;
  /** N: played + unplayed charts of the category */
  chartCount: number;
  songs: RadarSong[];
}

export interface RadarResult {
  version: string;
  values: RadarValues;
  /** in NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN order */
  categories: RadarCategoryResult[];
}

export function radarWithSongs(
  source: ChartSource,
  version: string,
  filter: ChartFilter,
  bests: Iterable<BestInput>,
): RadarResult {
  const bpis = new Map<number, number | null>();
  const exOf = new Map<number, number>();
  for (const b of bests) {
    const c = source.chart(b.chartId);
    if (!c || !c.radarCategory || !inScope(c, filter)) continue;
    bpis.set(c.id, source.currentBpi(c.id, b.exScore));
    exOf.set(c.id, b.exScore);
  }
  const valid = [...source.charts()].filter((c) => c.radarCategory && inScope(c, filter) && chartInVersion(c, version));
  const values = computeRadar(valid, bpis, (id) => source.chart(id)?.radarCategory);

  const songs = new Map<RadarCategory, RadarSong[]>(RADAR_CATEGORIES.map((k) => [k, []]));
  const seen = new Set<number>();
  const add = (id: number) => {
    const c = source.chart(id);
    if (!c?.radarCategory || seen.has(id)) return;
    seen.add(id);
    const ex = exOf.get(id) ?? null;
    songs.get(c.radarCategory)!.push({
      chartId: id,
      title: c.title,
      difficulty: c.difficulty,
      level: c.level,
      notes: c.notes,
      exScore: ex,
      bpi: ex === null ? BPI_FLOOR : (bpis.get(id) ?? BPI_FLOOR),
    });
  };
  for (const id of bpis.keys()) add(id);
  for (const c of valid) add(c.id);

  const categories = RADAR_CATEGORIES.map((category) => {
    const list = sortWithTitles(
      source,
      songs.get(category)!,
      (x) => x.title,
      (a, b) => b.bpi - a.bpi,
      (a, b) => a.chartId - b.chartId,
    );
    return {
      category,
      totalBpi: values[category],
      playedCount: list.filter((s) => s.exScore !== null).length,
      chartCount: list.length,
      songs: list,
    };
  });
  return { version, values, categories };
}
