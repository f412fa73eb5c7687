/**
 * Site-wide summary (docs/domain/stats.md#bpi-calculator-and-site): players, import batches and stored plays — totals,
 * today's counts, the last 90 days, by hour and by weekday — and the arena / area / version
 * distributions.
 *
 * Needs (constant SQL, each a GROUP BY; the service caches the answer — e.g. until the next JST
 * hour — and drops it through the cache-coherence mechanism):
 * - per table User, ImportBatch, Score: counts per JST (date, hour) of `createdAt`:
 *   `SELECT to_char("createdAt" AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD') AS date,
 *   EXTRACT(hour FROM "createdAt" AT TIME ZONE 'Asia/Tokyo')::int AS hour, COUNT(*)::int AS count
 *   FROM "<table>" GROUP BY 1, 2` (at most 24 rows per day of the site's life);
 * - `SELECT "arenaClass", COUNT(*) FROM "PlayerVersionStatus" WHERE "version" = $latest AND
 *   "arenaClass" IS NOT NULL GROUP BY 1`, the same for `"area"`;
 * - `SELECT "version", COUNT(*) FROM "Score" GROUP BY 1`.
 *
 * Rules:
 * - "Today" is today in JST (the date of `now` in JST); `newUsersToday`, `newBatchesToday`,
 *   `newPlaysToday` count today's rows (the reference's "today" counters count yesterday).
 * - Totals are the sums of all buckets (so they agree with the buckets).
 * - dailyRegistrations: the 90 JST days ending today (today included, days without rows listed
 *   with 0), oldest first.
 * - hourly (24 entries, JST hour 0–23) and weekday (7 entries, ISO 1 = Monday … 7 = Sunday) for
 *   windows `all`, `d90`, `d30`, `d7`: the last 90 / 30 / 7 JST days ending today, today included.
 * - arenaClassDistribution: every class A1 … B5 in order (0 when none); areaDistribution: by count
 *   desc, then name; versions: in game-version order, unknown versions last.
 */
import { ARENA_ORDER, GAME_VERSIONS, type ArenaClass } from '../constants';
import { addDays, isoWeekday, jstDate } from './common';

export interface HourBucket {
  /** JST date `YYYY-MM-DD` */
  date: string;
  /** JST hour 0–23 */
  hour: number;
  count: number;
}

export interface SiteSummaryInput {
  now: Date;
  users: readonly HourBucket[];
  batches: readonly HourBucket[];
  plays: readonly HourBucket[];
  arenaClasses: readonly { arenaClass: ArenaClass; count: number }[];
  areas: readonly { area: string; count: number }[];
  versions: readonly { version: string; count: number }[];
}

export type SiteWindow = 'all' | 'd90' | 'd30' | 'd7';
export const SITE_WINDOWS: readonly SiteWindow[] = ['all', 'd90', 'd30', 'd7'];
const WINDOW_DAYS: Record<SiteWindow, number | null> = { all: null, d90: 90, d30: 30, d7: 7 };

export interface SiteSummary {
  generatedAt: Date;
  today: string;
  summary: {
    totalUsers: number;
    newUsersToday: number;
    totalBatches: number;
    newBatchesToday: number;
    totalPlays: number;
    newPlaysToday: number;
  };
  dailyRegistrations: { date: string; users: number; batches: number; plays: number }[];
  hourly: Record<SiteWindow, { hour: number; batches: number; plays: number }[]>;
  weekday: Record<SiteWindow, { weekday: number; batches: number; plays: number }[]>;
  arenaClassDistribution: { arenaClass: ArenaClass; count: number }[];
  areaDistribution: { area: string; count: number }[];
  versionDistribution: { versions: { version: string; count: number }[]; total: number };
}

const sum = (rows: readonly { count: number }[]) => rows.reduce((n, r) => n + Number(r.count), 0);

export function siteSummary(input: SiteSummaryInput): SiteSummary {
  const today = jstDate(input.now);
  const onDay = (rows: readonly HourBucket[], d: string) => sum(rows.filter((r) => r.date === d));
  const first90 = addDays(today, -89);
  const daily = new Map<string, { users: number; batches: number; plays: number }>();
  for (let d = first90; d <= today; d = addDays(d, 1)) daily.set(d, { users: 0, batches: 0, plays: 0 });
  const addDaily = (rows: readonly HourBucket[], k: 'users' | 'batches' | 'plays') => {
    for (const r of rows) {
      const e = daily.get(r.date);
      if (e) e[k] += Number(r.count);
    }
  };
  addDaily(input.users, 'users');
  addDaily(input.batches, 'batches');
  addDaily(input.plays, 'plays');

  const hourly = {} as SiteSummary['hourly'];
  const weekday = {} as SiteSummary['weekday'];
  for (const w of SITE_WINDOWS) {
    const days = WINDOW_DAYS[w];
    const from = days === null ? '' : addDays(today, 1 - days);
    const inWindow = (r: HourBucket) => r.date >= from && r.date <= today;
    const h = Array.from({ length: 24 }, (_, hour) => ({ hour, batches: 0, plays: 0 }));
    const wd = Array.from({ length: 7 }, (_, i) => ({ weekday: i + 1, batches: 0, plays: 0 }));
    for (const [rows, k] of [
      [input.batches, 'batches'],
      [input.plays, 'plays'],
    ] as const) {
      for (const r of rows) {
        if (!inWindow(r)) continue;
        h[r.hour][k] += Number(r.count);
        wd[isoWeekday(r.date) - 1][k] += Number(r.count);
      }
    }
    hourly[w] = h;
    weekday[w] = wd;
  }

  const classCount = new Map<string, number>();
  for (const r of input.arenaClasses)
    classCount.set(r.arenaClass, (classCount.get(r.arenaClass) ?? 0) + Number(r.count));
  const vOrder = (v: string) => {
    const i = (GAME_VERSIONS as readonly string[]).indexOf(v);
    return i < 0 ? GAME_VERSIONS.length : i;
  };
  const versions = [...input.versions]
    .map((v) => ({ version: v.version, count: Number(v.count) }))
    .sort((a, b) => vOrder(a.version) - vOrder(b.version) || (a.version < b.version ? -1 : 1));
  return {
    generatedAt: input.now,
    today,
    summary: {
      totalUsers: sum(input.users),
      newUsersToday: onDay(input.users, today),
      totalBatches: sum(input.batches),
      newBatchesToday: onDay(input.batches, today),
      totalPlays: sum(input.plays),
      newPlaysToday: onDay(input.plays, today),
    },
    dailyRegistrations: [...daily].map(([date, e]) => ({ date, ...e })),
    hourly,
    weekday,
    arenaClassDistribution: ARENA_ORDER.map((arenaClass) => ({ arenaClass, count: classCount.get(arenaClass) ?? 0 })),
    areaDistribution: [...input.areas]
      .map((a) => ({ area: a.area, count: Number(a.count) }))
      .sort((a, b) => b.count - a.count || (a.area < b.area ? -1 : a.area > b.area ? 1 : 0)),
    versionDistribution: { versions, total: sum(versions) },
  };
}
