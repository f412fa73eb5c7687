/**
 * The data behind the chart pictures (browser test and unit test): small fixtures run through
 * the stats calculators, so the SVGs are drawn from the same results as the JSON.
 */
import {
  bpiDistribution,
  chartSource,
  NO_FILTER,
  radarWithSongs,
  totalBpiTrend,
  type PlayInput,
  type StatsChart,
} from '../../src/domain/stats';
import type { RadarCategory } from '../../src/domain/constants';

const TITLES: [string, RadarCategory, 'ANOTHER' | 'LEGGENDARIA' | 'HYPER'][] = [
  ['冥', 'NOTES', 'ANOTHER'],
  ['灼熱 Pt.2 Long Train Running', 'PEAK', 'ANOTHER'],
  ['ピアノ協奏曲第１番"蠍火"', 'CHORD', 'ANOTHER'],
  ['卑弥呼', 'SCRATCH', 'ANOTHER'],
  ['Verflucht', 'CHARGE', 'LEGGENDARIA'],
  ['子供の落書き帳', 'SOFLAN', 'ANOTHER'],
  ['"Quote" & <Tag>', 'NOTES', 'HYPER'],
  ['嘆きの樹', 'CHORD', 'ANOTHER'],
  ['天空の夜明け', 'PEAK', 'LEGGENDARIA'],
  ['ギラギラ', 'CHARGE', 'ANOTHER'],
];

/** 10 ☆12 charts: notes 1000 (m 2000), kaiden average 1600, WR 1900, coef 1.175. */
export const charts: StatsChart[] = TITLES.map(([title, radarCategory, difficulty], i) => ({
  id: i + 1,
  songId: i + 1,
  title,
  playStyle: 'SP',
  difficulty,
  level: 12,
  notes: 1000,
  bpm: '150',
  releasedVersion: 30,
  removedInVersion: null,
  radarCategory,
  definition: { notes: 1000, wr: 1900, kaidenAvg: 1600, coef: null },
}));
export const source = chartSource(charts);

const EX = [1880, 1750, 1690, 1610, 1500, 1800, 1720, 1560, 1650, 1450];
export const bests = charts.map((c, i) => ({ chartId: c.id, exScore: EX[i] }));

let id = 1;
const play = (chartId: number, exScore: number, day: string): PlayInput => ({
  id: id++,
  chartId,
  exScore,
  bpi: source.currentBpi(chartId, exScore),
  playedAt: new Date(`${day}T12:00:00+09:00`),
});
/** A month of improvements: every chart first at a lower score, then climbing. */
export const plays: PlayInput[] = [
  ...charts.map((c, i) => play(c.id, EX[i] - 120, '2025-03-01')),
  play(1, 1800, '2025-03-04'),
  play(2, 1700, '2025-03-06'),
  play(3, 1690, '2025-03-09'),
  play(1, 1880, '2025-03-12'),
  play(6, 1800, '2025-03-15'),
  play(4, 1610, '2025-03-18'),
  play(2, 1750, '2025-03-21'),
  play(7, 1720, '2025-03-24'),
  play(5, 1500, '2025-03-27'),
  play(8, 1560, '2025-03-28'),
  play(9, 1650, '2025-03-30'),
  play(10, 1450, '2025-03-31'),
];

export const radar = radarWithSongs(source, '33', NO_FILTER, bests);
export const trend = totalBpiTrend(source, '33', NO_FILTER, 'day', plays);
export const distribution = bpiDistribution(source, bests, NO_FILTER, 10);
export const title = 'プレイヤー名 — DJ テスト';
