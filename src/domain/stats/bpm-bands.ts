/**
 * BPI by BPM band (docs/domain/stats.md#bpm-bands): a total BPI per tempo band, with the charts behind it.
 *
 * Needs: the chart source (catalogue: bpm text, level, difficulty, definition, release/removal)
 * and the player's bests in the version (one read of BestScore for user + version).
 *
 * Rules:
 * - Charts: SP charts in the query's scope (levels default 11 and 12, difficulties default
 *   HYPER/ANOTHER/LEGGENDARIA) with a current definition, available in the version. A played
 *   chart counts its best's BPI under the current definition; an unplayed one −15.
 * - Bands by the chart's BPM text: `200~` [200, ∞), `180~200` [180, 200), `160~180`,
 *   `140~160`, `120~140`, `~120` [0, 120), `Soflan` = the text names a range of different tempos
 *   ("75-150", also written with `~`). A single tempo written as a range ("150-150") is that tempo.
 *   A chart whose BPM text holds no number is **not** a soflan chart (the reference puts it there):
 *   it goes to the band `?`, listed last (the published definitions have none).
 * - Per band: N = the band's chart count; total = total BPI (src/domain/bpi) of the band's BPIs
 *   over N. Bands in the order above, empty bands omitted; charts by BPI desc, then title.
 */
import { BPI_FLOOR, totalBpi } from '../bpi';
import { scopeCharts, sortWithTitles, type BestInput, type ChartFilter, type ChartSource } from './common';

export const BPM_BANDS = [
  { label: '200~', from: 200, to: null },
  { label: '180~200', from: 180, to: 200 },
  { label: '160~180', from: 160, to: 180 },
  { label: '140~160', from: 140, to: 160 },
  { label: '120~140', from: 120, to: 140 },
  { label: '~120', from: 0, to: 120 },
  { label: 'Soflan', from: null, to: null },
  { label: '?', from: null, to: null },
] as const;
export type BpmBandLabel = (typeof BPM_BANDS)[number]['label'];

// the band of each BPM text seen: a memo of a pure function (not data), bounded
const bands = new Map<string, BpmBandLabel>();

/** The band of a chart's BPM text. */
export function bpmBand(bpm: string | null | undefined): BpmBandLabel {
  const text = String(bpm ?? '');
  let band = bands.get(text);
  if (band === undefined) {
    band = bandOf(text);
    if (bands.size < 10_000) bands.set(text, band);
  }
  return band;
}

function bandOf(bpm: string): BpmBandLabel {
  const nums = [...new Set((bpm.match(/\d+(?:\.\d+)?/g) ?? []).map(Number))];
  if (nums.length === 0) return '?';
  if (nums.length > 1) return 'Soflan';
  const t = nums[0];
  for (const b of BPM_BANDS) if (b.from !== null && t >= b.from && (b.to === null || t < b.to)) return b.label;
  return '?';
}

export interface BpmBandSong {
  chartId: number;
  title: string;
  difficulty: string;
  level: number;
  bpm: string;
  notes: number;
  exScore: number | null;
  bpi: number;
}

export interface BpmBandResult {
  label: BpmBandLabel;
  totalBpi: number;
  /** N: charts in the band */
  chartCount: number;
  playedCount: number;
  songs: BpmBandSong[];
}

export function bpmBands(
  source: ChartSource,
  version: string,
  filter: ChartFilter,
  bests: Iterable<BestInput>,
): BpmBandResult[] {
  const best = new Map<number, number>();
  for (const b of bests) best.set(b.chartId, b.exScore);
  const byBand = new Map<BpmBandLabel, BpmBandSong[]>();
  for (const c of scopeCharts(source, version, filter)) {
    const ex = best.get(c.id) ?? null;
    const song: BpmBandSong = {
      chartId: c.id,
      title: c.title,
      difficulty: c.difficulty,
      level: c.level,
      bpm: c.bpm,
      notes: c.notes,
      exScore: ex,
      bpi: ex === null ? BPI_FLOOR : (source.currentBpi(c.id, ex) ?? BPI_FLOOR),
    };
    const label = bpmBand(c.bpm);
    const list = byBand.get(label);
    if (list) list.push(song);
    else byBand.set(label, [song]);
  }
  const out: BpmBandResult[] = [];
  for (const { label } of BPM_BANDS) {
    const songs = byBand.get(label);
    if (!songs) continue;
    sortWithTitles(
      source,
      songs,
      (x) => x.title,
      (a, b) => b.bpi - a.bpi,
      (a, b) => a.chartId - b.chartId,
    );
    out.push({
      label,
      totalBpi: totalBpi(
        songs.map((s) => s.bpi),
        songs.length,
      ),
      chartCount: songs.length,
      playedCount: songs.filter((s) => s.exScore !== null).length,
      songs,
    });
  }
  return out;
}
