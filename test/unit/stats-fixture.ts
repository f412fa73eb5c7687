/**
 * Tiny fixtures for the stats calculator tests (test/unit/stats-*.test.ts).
 *
 * `linearSource` makes the BPI of a best easy to work out by hand: on every chart the BPI of EX s
 * is (s − 1200) / 3, floored at −15 (1200 → 0, 1230 → 10, 1350 → 50, 1500 → 100, 1140 → −15).
 * The calculators only aggregate BPIs (the formula itself is tested in bpi.test.ts), so a
 * source with a simple BPI is a fair fixture; tests that need the real formula use
 * `chartSource` (src/domain/stats/common.ts) with real definitions.
 */
import type { ChartSource, PlayInput, StatsChart } from '../../src/domain/stats';

let nextId = 1000;

/** An SP ANOTHER ☆12 chart, 800 notes, BPM 150, released in 30, definition K 1200 / WR 1500 / coef 1. */
export function aChart(over: Partial<StatsChart> & { id: number }): StatsChart {
  return {
    songId: over.id,
    title: `Song ${over.id}`,
    playStyle: 'SP',
    difficulty: 'ANOTHER',
    level: 12,
    notes: 800,
    bpm: '150',
    releasedVersion: 30,
    removedInVersion: null,
    radarCategory: null,
    definition: { notes: 800, wr: 1500, kaidenAvg: 1200, coef: 1 },
    ...over,
  };
}

export const linearBpi = (ex: number) => Math.max(-15, (ex - 1200) / 3);

export function linearSource(charts: StatsChart[]): ChartSource {
  const byId = new Map(charts.map((c) => [c.id, c]));
  return {
    chart: (id) => byId.get(id),
    charts: () => byId.values(),
    currentBpi: (id, ex) => (byId.get(id)?.definition ? linearBpi(ex) : null),
  };
}

/** JST wall time → instant: jst('2025-01-02 00:30') is 2025-01-01T15:30Z. */
export function jst(wall: string): Date {
  const [d, t = '12:00'] = wall.split(' ');
  return new Date(Date.parse(`${d}T${t}:00+09:00`));
}

/** A stored play (ids ascend in creation order). */
export function aPlay(
  chartId: number,
  exScore: number,
  at: string,
  bpi: number | null = linearBpi(exScore),
): PlayInput {
  return { id: nextId++, chartId, exScore, bpi, playedAt: jst(at) };
}
