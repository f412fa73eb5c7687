/**
 * IIDX TOWER — the game's daily key counter: read, register, and the ranking over a period
 * (docs/domain/stats.md#tower).
 *
 * Needs:
 * - read: the player's TowerEntry rows of the version (one statement, optional playDate range);
 * - register: nothing (validation here; the service upserts the checked rows in one statement
 *   keyed by the primary key (userId, version, playDate) — so a day sent under another version
 *   is that version's day, not an overwrite of the other: the reference's PK ignores the version);
 * - ranking: one aggregate over every player — `SELECT t."userId", SUM(t."keyCount") AS "keyCount",
 *   SUM(t."scratchCount") AS "scratchCount", u."name", u."profileImage", u."gameId", u."isPublic"
 *   FROM "TowerEntry" t JOIN "User" u ON u."id" = t."userId" WHERE t."version" = $v AND
 *   t."playDate" BETWEEN $start AND $end GROUP BY t."userId", u."id"` (index (version, playDate));
 *   the service sets `visible` per row through the rule table, then towerRanking ranks and pages.
 *
 * Rules:
 * - Dates are JST game dates `YYYY-MM-DD`. Period of the ranking: `day` (the date), `week` (the
 *   ISO week holding it, Monday … Sunday — as the trend and the box plot), `month` (its calendar
 *   month). The date defaults to today (JST); a later date is treated as today (a client ahead
 *   of JST may ask for "tomorrow"); the period returned says which days were used.
 * - Register: version required and known (the reference takes any string); 1–1000 rows; each
 *   playDate a real calendar date not after today (JST); keyCount and scratchCount integers in
 *   [0, 10 000 000]; a date given twice in one request is refused (which one would win?).
 * - Ranking value = keys + scratches over the period; ranks, paging and masking as ranking.ts.
 */
import { GAME_VERSIONS, isGameVersion, type GameVersion } from '../constants';
import { dateOnly, isCalendarDate, monthEnd, weekStart, addDays, type GroupBy, type TowerDayInput } from './common';
import type { Checked, StatsIssue } from './query';
import { rankRows, type RankingIdentity, type RankingPage, type RankingPageSelector } from './ranking';

export const TOWER_MAX_ROWS = 1000;
export const TOWER_MAX_COUNT = 10_000_000;

export interface TowerDay {
  playDate: string;
  keyCount: number;
  scratchCount: number;
}

export interface TowerRegistration {
  version: GameVersion;
  rows: TowerDay[];
}

/** Checks a registration `{version, rows:[{playDate, keyCount, scratchCount}]}` (`today`: the JST date now). */
export function parseTowerRegistration(
  input: { version?: unknown; rows?: unknown },
  today: string,
): Checked<TowerRegistration> {
  const issues: StatsIssue[] = [];
  if (input.version === undefined || input.version === null)
    issues.push({ code: 'invalid_value', path: ['version'], message: 'version is required' });
  else if (!isGameVersion(input.version))
    issues.push({
      code: 'invalid_enum_value',
      path: ['version'],
      message: `Unknown game version ${JSON.stringify(input.version)}: expected one of ${GAME_VERSIONS.join(', ')}`,
    });
  const rows: TowerDay[] = [];
  if (!Array.isArray(input.rows) || input.rows.length === 0 || input.rows.length > TOWER_MAX_ROWS) {
    issues.push({ code: 'out_of_range', path: ['rows'], message: `rows must be a list of 1–${TOWER_MAX_ROWS} days` });
  } else {
    const seen = new Set<string>();
    input.rows.forEach((raw, i) => {
      const r = (raw ?? {}) as Record<string, unknown>;
      const d = r.playDate;
      if (!isCalendarDate(d))
        issues.push({
          code: 'invalid_date',
          path: ['rows', i, 'playDate'],
          message: 'playDate must be a calendar date YYYY-MM-DD',
        });
      else if (d > today)
        issues.push({
          code: 'out_of_range',
          path: ['rows', i, 'playDate'],
          message: `playDate must not be after today (${today}, JST)`,
        });
      else if (seen.has(d))
        issues.push({ code: 'invalid_value', path: ['rows', i, 'playDate'], message: `playDate ${d} is given twice` });
      else seen.add(d);
      for (const k of ['keyCount', 'scratchCount'] as const) {
        const v = r[k];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > TOWER_MAX_COUNT) {
          issues.push({
            code: 'out_of_range',
            path: ['rows', i, k],
            message: `${k} must be an integer between 0 and ${TOWER_MAX_COUNT}`,
          });
        }
      }
      rows.push({ playDate: String(d), keyCount: Number(r.keyCount), scratchCount: Number(r.scratchCount) });
    });
  }
  if (issues.length) return { ok: false, issues };
  return {
    ok: true,
    value: { version: input.version as GameVersion, rows: rows.sort((a, b) => (a.playDate < b.playDate ? -1 : 1)) },
  };
}

export interface TowerHistory {
  /** newest first */
  days: TowerDay[];
  totalKeys: number;
  totalScratches: number;
  playDays: number;
}

/** The player's tower days (optionally within [from, to]), newest first, with totals. */
export function towerHistory(
  entries: Iterable<TowerDayInput>,
  range: { from?: string | null; to?: string | null } = {},
): TowerHistory {
  const days: TowerDay[] = [];
  for (const e of entries) {
    const d = dateOnly(e.playDate);
    if ((range.from && d < range.from) || (range.to && d > range.to)) continue;
    days.push({ playDate: d, keyCount: e.keyCount, scratchCount: e.scratchCount });
  }
  days.sort((a, b) => (a.playDate < b.playDate ? 1 : a.playDate > b.playDate ? -1 : 0));
  return {
    days,
    totalKeys: days.reduce((n, d) => n + d.keyCount, 0),
    totalScratches: days.reduce((n, d) => n + d.scratchCount, 0),
    playDays: days.filter((d) => d.keyCount + d.scratchCount > 0).length,
  };
}

export interface TowerPeriod {
  period: GroupBy;
  startDate: string;
  endDate: string;
}

/** The days of a ranking period holding `date` (default and upper bound: `today`). */
export function towerPeriod(period: GroupBy, date: string | null, today: string): TowerPeriod {
  const d = date === null || date > today ? today : date;
  if (period === 'day') return { period, startDate: d, endDate: d };
  if (period === 'week') {
    const start = weekStart(d);
    return { period, startDate: start, endDate: addDays(start, 6) };
  }
  return { period, startDate: `${d.slice(0, 7)}-01`, endDate: monthEnd(d.slice(0, 7)) };
}

export interface TowerTotalRow extends RankingIdentity {
  keyCount: number;
  scratchCount: number;
}

export type TowerRanking = RankingPage<{ keyCount: number; scratchCount: number }> & TowerPeriod;

export function towerRanking(
  rows: readonly TowerTotalRow[],
  period: TowerPeriod,
  viewerId: string | null,
  page: RankingPageSelector<RankingIdentity>,
): TowerRanking {
  const clean = rows.map((r) => ({ ...r, keyCount: Number(r.keyCount), scratchCount: Number(r.scratchCount) }));
  return {
    ...period,
    ...rankRows(
      clean,
      (r) => r.keyCount + r.scratchCount,
      viewerId,
      page as RankingPageSelector<(typeof clean)[number]>,
    ),
  };
}
