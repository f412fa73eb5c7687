/**
 * Monthly and yearly review (docs/domain/stats.md#review; owner only — the service checks the viewer is
 * the player): how the total BPI, the radar, the charts and the key counter moved in a month
 * (`YYYY-MM`) or a year (`YYYY`), and against the followed rivals. By topic: the replay of the plays
 * into bests and totals is review-timeline.ts, the rivals and the growth ranking review-rivals.ts.
 *
 * Needs (constant SQL, whatever the period or the number of rivals):
 * 1. my plays of the version played before the end of the period (Score: id, chartId, exScore,
 *    bpi, playedAt; index (userId, version, playedAt));
 * 2. my tower days of the version in the period (TowerEntry);
 * 3. my arena observations in the period (arena-trend.ts statement 1, fetchedAt in the period);
 * 4. my rank on each chart I played in the period (`songRanks`, read for the updated ones) over
 *    BestScore — `SELECT m."chartId", 1 + COUNT(o."userId") FILTER (WHERE o."exScore" > m."exScore") …
 *    FROM "BestScore" m JOIN "BestScore" o USING ("chartId", "version") WHERE m."userId" = $me AND
 *    m."version" = $v AND m."chartId" IN (my Score rows' charts played in [start, end)) GROUP BY
 *    m."chartId", m."exScore"` — in the one statement of 5 and 6 (the dashboard's review);
 * 5. the tower totals of every player over the period (tower.ts ranking statement) → towerRanks;
 * 6. the followed players the viewer may see (one read of Follow + the rule table) and their plays
 *    of the version before the period end (one statement, `"userId" = ANY($rivals)`).
 *
 * Rules:
 * - Period: JST [first day 00:00, last day 24:00). History points: per JST day (month review)
 *   or per month `YYYY-MM` (year review) with at least one play, ascending.
 * - Total BPI: over the one total set (SP ☆12 with a current definition available in the
 *   version, src/domain/totals.ts); the BPI of a best is the one stored with the play that set it
 *   (as the trend). start = total of the bests before the period; after each history group the
 *   total again; end = the last (start when nothing was played); diff = end − start.
 * - Updated charts: SP ☆11/☆12 BPI charts whose best EX rose in the period (first plays
 *   included). bpiAfter = the best's BPI at the end; bpiBefore = before the period (null: first
 *   played in it). topBpiSongs: every updated chart by bpiAfter desc; topImprovedSongs: those
 *   with a bpiBefore, by diff = bpiAfter − bpiBefore desc (may hold ≤ 0). `rank` from songRanks
 *   (null when unknown).
 * - Activity: key counter sums and play days (days with any count) of the period; updatedSongs
 *   = updated charts; byWeekday (ISO 1 = Monday … 7 = Sunday) and byHour (JST 0–23) count the
 *   period's stored plays on BPI charts (every improvement — EX, lamp or misses); bestDays: the
 *   history step with the largest positive growth (first of equals; null when none), the day
 *   with most keys and with most scratches (first of equals; null without tower data).
 * - Radar growth: the radar (src/domain/radar.ts, ☆11/☆12 charts available in the version) of
 *   the bests before the period and at each history group; per category start, end, diff, the
 *   history, and the updated charts of the category whose BPI rose (from −15 when first played),
 *   by rise desc.
 * - Rivals (the service passes only players the viewer may see): per rival, the total BPI start /
 *   end / growth on the same rules, and on SP ☆11/☆12 BPI charts both have played the outcome at
 *   the start and at the **end of the period** (the reference compares today's scores even for
 *   past months): newWins = charts won at the end and not at the start, newLosses likewise;
 *   topWinningSongs = the 10 charts won at the end by the largest EX margin. Sorted by
 *   newWins − newLosses desc, then name.
 * - Growth ranking: me and the rivals; growthRate = round2(growth / (start + 15) · 100) when
 *   start > −15, else null; byAbsGrowth (growth desc), byGrowthRate (non-null rates, desc);
 *   ties by name.
 * - Arena: best class seen in the period (A1 … B5), the best class rank seen in that class, the
 *   highest A1 streak; null without observations.
 */
import { BPI_FLOOR, round2 } from '../bpi';
import { ARENA_ORDER, RADAR_CATEGORIES, type ArenaClass, type RadarCategory } from '../constants';
import { chartInVersion, computeRadar, type RadarValues } from '../radar';
import type { ArenaObservation } from './arena-trend';
import {
  chartScore,
  dateOnly,
  inScope,
  isoWeekday,
  jstDate,
  jstHour,
  NO_FILTER,
  type ChartScore,
  type ChartSource,
  type PlayInput,
  type ReplayedBest,
  type TowerDayInput,
} from './common';
import type { ReviewPeriod } from './query';
import {
  reviewGrowthRanking,
  reviewRivals,
  type GrowthEntry,
  type ReviewRival,
  type ReviewRivalInput,
} from './review-rivals';
import { inPeriodOf, timeline, type HistoryPoint } from './review-timeline';
import { totalSet } from './total-bpi';

export {
  REVIEW_VIEWER_NAME,
  TOP_WINNING_SONGS,
  type GrowthEntry,
  type ReviewRival,
  type ReviewRivalInput,
} from './review-rivals';
export type { HistoryPoint } from './review-timeline';

export interface ReviewInput {
  version: string;
  period: ReviewPeriod;
  plays: readonly PlayInput[];
  tower?: readonly TowerDayInput[];
  arena?: readonly ArenaObservation[];
  songRanks?: ReadonlyMap<number, number>;
  towerRanks?: TowerRanks | null;
  rivals?: readonly ReviewRivalInput[];
}

export interface TowerRanks {
  keysRank: number | null;
  scratchRank: number | null;
  totalUsers: number;
}

export interface ReviewSong extends ChartScore {
  rank: number | null;
  bpiBefore: number | null;
  exScoreBefore: number | null;
  diff: number | null;
}

export interface Review {
  version: string;
  period: ReviewPeriod;
  bpi: { start: number; end: number; diff: number; chartCount: number; history: HistoryPoint[] };
  topSongs: { topBpiSongs: ReviewSong[]; topImprovedSongs: ReviewSong[] };
  activity: {
    totalKeys: number;
    totalScratches: number;
    playDays: number;
    updatedSongs: number;
    byWeekday: { weekday: number; count: number }[];
    byHour: { hour: number; count: number }[];
    towerRanking: TowerRanks | null;
    bestDays: {
      bestGrowth: { date: string; bpiDiff: number } | null;
      bestKeysDay: { date: string; keyCount: number } | null;
      bestScratchDay: { date: string; scratchCount: number } | null;
    };
  };
  radarGrowth: {
    category: RadarCategory;
    start: number;
    end: number;
    diff: number;
    history: HistoryPoint[];
    songs: ReviewSong[];
  }[];
  rivals: ReviewRival[];
  growthRanking: { byAbsGrowth: GrowthEntry[]; byGrowthRate: GrowthEntry[] };
  arena: { bestClass: ArenaClass; bestRank: number | null; maxA1Continue: number | null } | null;
}

/** Competition ranks of my summed keys and scratches among every player's sums of the period. */
export function towerPeriodRanks(
  rows: readonly { userId: string; keyCount: number; scratchCount: number }[],
  myId: string,
): TowerRanks {
  const me = rows.find((r) => r.userId === myId);
  const rankBy = (k: 'keyCount' | 'scratchCount') =>
    me ? 1 + rows.filter((r) => Number(r[k]) > Number(me[k])).length : null;
  return { keysRank: rankBy('keyCount'), scratchRank: rankBy('scratchCount'), totalUsers: rows.length };
}

export function monthlyReview(source: ChartSource, input: ReviewInput): Review {
  const { version, period } = input;
  const inPeriod = inPeriodOf(period);
  const set = totalSet(source, version);
  const bpiCharts = (id: number) => {
    const c = source.chart(id);
    return c && inScope(c, NO_FILTER) ? c : undefined;
  };
  const me = timeline(input.plays, period, set);

  // updated charts
  const songs: ReviewSong[] = [];
  for (const [chartId, b] of me.after) {
    if (!inPeriod(b.playedAt)) continue;
    const c = bpiCharts(chartId);
    if (!c) continue;
    const prev = me.before.get(chartId) ?? null;
    const bpi = b.bpi ?? BPI_FLOOR;
    const before = prev ? (prev.bpi ?? BPI_FLOOR) : null;
    // the row's own fields set on chartScore's object (a spread of it copied every row through V8's slow clone path)
    const song = chartScore(c, b.exScore, bpi) as ReviewSong;
    song.rank = input.songRanks?.get(chartId) ?? null;
    song.bpiBefore = before;
    song.exScoreBefore = prev?.exScore ?? null;
    song.diff = before === null ? null : round2(bpi - before);
    songs.push(song);
  }
  const tie = (a: ReviewSong, b: ReviewSong) => a.title.localeCompare(b.title) || a.chartId - b.chartId;
  const topBpiSongs = [...songs].sort((a, b) => b.bpi - a.bpi || tie(a, b));
  const topImprovedSongs = songs.filter((s) => s.diff !== null).sort((a, b) => b.diff! - a.diff! || tie(a, b));

  // activity
  const tower = (input.tower ?? [])
    .map((t) => ({ date: dateOnly(t.playDate), keyCount: t.keyCount, scratchCount: t.scratchCount }))
    .filter((t) => t.date >= period.from && t.date <= period.to)
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  const byWeekday = Array.from({ length: 7 }, (_, k) => ({ weekday: k + 1, count: 0 }));
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
  for (const p of input.plays) {
    if (!inPeriod(p.playedAt) || !bpiCharts(p.chartId)) continue;
    byWeekday[isoWeekday(jstDate(p.playedAt)) - 1].count++;
    byHour[jstHour(p.playedAt)].count++;
  }
  let bestGrowth: { date: string; bpiDiff: number } | null = null;
  let prevValue = me.start;
  for (const h of me.history) {
    const d = round2(h.value - prevValue);
    if (d > 0 && (!bestGrowth || d > bestGrowth.bpiDiff)) bestGrowth = { date: h.date, bpiDiff: d };
    prevValue = h.value;
  }
  const maxBy = (k: 'keyCount' | 'scratchCount') => {
    let best: (typeof tower)[number] | null = null;
    for (const t of tower) if (t[k] > (best ? best[k] : 0)) best = t;
    return best;
  };
  const kd = maxBy('keyCount');
  const sd = maxBy('scratchCount');

  // radar growth: computed when asked (the dashboard's review rarely selects it; one radar per history group)
  const radarGrowthOf = (): Review['radarGrowth'] => {
    const radarCharts = [...source.charts()].filter(
      (c) => c.radarCategory && inScope(c, NO_FILTER) && chartInVersion(c, version),
    );
    const radarOf = (bests: Map<number, ReplayedBest>): RadarValues => {
      const bpis = new Map<number, number | null>();
      for (const [id, b] of bests) {
        const c = bpiCharts(id);
        if (c?.radarCategory) bpis.set(id, b.bpi);
      }
      return computeRadar(radarCharts, bpis, (id) => source.chart(id)?.radarCategory);
    };
    const radarStart = radarOf(me.before);
    const radarSnaps = me.snapshots.map((s) => ({ date: s.date, radar: radarOf(s.bests) }));
    const radarEnd = radarSnaps.length ? radarSnaps[radarSnaps.length - 1].radar : radarStart;
    const radarGrowth = RADAR_CATEGORIES.filter((cat) => radarCharts.some((c) => c.radarCategory === cat)).map(
      (category) => ({
        category,
        start: radarStart[category],
        end: radarEnd[category],
        diff: round2(radarEnd[category] - radarStart[category]),
        history: radarSnaps.map((s) => ({ date: s.date, value: s.radar[category] })),
        songs: songs
          .filter((s) => source.chart(s.chartId)?.radarCategory === category && s.bpi > (s.bpiBefore ?? BPI_FLOOR))
          .map((s) => ({ ...s, diff: round2(s.bpi - (s.bpiBefore ?? BPI_FLOOR)) }))
          .sort((a, b) => b.diff - a.diff || tie(a, b)),
      }),
    );
    return radarGrowth;
  };
  let radarGrowthMemo: Review['radarGrowth'] | undefined;

  // rivals and the growth ranking (review-rivals.ts)
  const rivals = reviewRivals(source, period, set, me, input.rivals ?? [], bpiCharts);
  const growthRanking = reviewGrowthRanking(me, rivals);

  // arena
  const obs = (input.arena ?? []).filter((o) => inPeriod(o.fetchedAt));
  let arena: Review['arena'] = null;
  if (obs.length) {
    const bestClass = obs.map((o) => o.arenaClass).sort((a, b) => ARENA_ORDER.indexOf(a) - ARENA_ORDER.indexOf(b))[0];
    const ranks = obs.filter((o) => o.arenaClass === bestClass && o.rank !== null).map((o) => o.rank!);
    const streaks = obs.filter((o) => o.a1Continue !== null).map((o) => o.a1Continue!);
    arena = {
      bestClass,
      bestRank: ranks.length ? Math.min(...ranks) : null,
      maxA1Continue: streaks.length ? Math.max(...streaks) : null,
    };
  }

  return {
    version,
    period,
    bpi: { start: me.start, end: me.end, diff: round2(me.end - me.start), chartCount: set.size, history: me.history },
    topSongs: { topBpiSongs, topImprovedSongs },
    activity: {
      totalKeys: tower.reduce((n, t) => n + t.keyCount, 0),
      totalScratches: tower.reduce((n, t) => n + t.scratchCount, 0),
      playDays: tower.filter((t) => t.keyCount + t.scratchCount > 0).length,
      updatedSongs: songs.length,
      byWeekday,
      byHour,
      towerRanking: input.towerRanks ?? null,
      bestDays: {
        bestGrowth,
        bestKeysDay: kd ? { date: kd.date, keyCount: kd.keyCount } : null,
        bestScratchDay: sd ? { date: sd.date, scratchCount: sd.scratchCount } : null,
      },
    },
    get radarGrowth() {
      return (radarGrowthMemo ??= radarGrowthOf());
    },
    rivals,
    growthRanking,
    arena,
  };
}
