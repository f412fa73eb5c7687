/**
 * Stats: a player's stats per version (total BPI and arena status, masked by the owner's
 * switches), area rank, radar, recommended charts (weapons / potential) and the total-BPI trend
 * (the global total-BPI ranking: cross-player.service.ts). Reads the stored totals (PlayerVersionStatus, kept by the
 * scores area's totals.service.ts) and the bests through the scores area; no GraphQL types here.
 */
import { type PlayerVersionStatus, type User } from '../../generated/prisma/client';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { BPI_LEVELS, LATEST_VERSION, PlayStyle, type Difficulty } from '../../domain/constants';
import { sortVersionsForProfile } from '../../domain/profile';
import { chartInVersion, computeRadar, type RadarValues } from '../../domain/radar';
import { badInput, type ErrorIssue } from '../../errors';
import { parseVersion, versionIssue } from '../../graphql/args';
import { aaaTable, checkAll, orThrow, parseLevels, parseVersion as parseStatsVersion } from '../../domain/stats';
import type { AreaScope } from '../area';
import { DashboardService } from './dashboard.service';
import { CrossPlayerService } from './cross-player.service';
import { listSupporters } from './supporters';
import type { CatalogueChart } from '../catalogue/catalogue';
import { entry, loadPlays, matchesFilter, playDayTotals, weekKey, type ChartFilter } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';

export interface StatsEntry {
  version: string;
  totalBpi: number | null;
  arenaClass: string | null;
  arenaRank: number | null;
  area: string | null;
  gradeSp: string | null;
  gradeDp: string | null;
  updatedAt: Date | null;
  bestArenaClass: string | null;
  bestArenaClassAt: Date | null;
}

export interface RecommendedQuery {
  version?: string | null;
  level?: readonly number[] | null;
  difficulty?: readonly string[] | null;
  limit?: number | null;
  offset?: number | null;
}

/** Validates the recommended query; out-of-range values are a 400, not a silent slice. */
export function parseRecommendedQuery(q: RecommendedQuery) {
  const issues: ErrorIssue[] = [];
  const version = q.version === null || q.version === undefined ? LATEST_VERSION : q.version;
  const vIssue = versionIssue(version);
  if (vIssue) issues.push(vIssue);
  const limit = q.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push({ code: 'out_of_range', path: ['limit'], message: 'limit must be an integer between 1 and 100' });
  const offset = q.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    issues.push({ code: 'out_of_range', path: ['offset'], message: 'offset must be an integer ≥ 0' });
  const levels = [...(q.level ?? [])];
  for (const l of levels)
    if (!(BPI_LEVELS as readonly number[]).includes(l))
      issues.push({ code: 'invalid_value', path: ['level'], message: 'level must be 11 or 12' });
  const difficulties = [...(q.difficulty ?? [])] as Difficulty[];
  for (const d of difficulties) {
    if (!['HYPER', 'ANOTHER', 'LEGGENDARIA'].includes(d))
      issues.push({
        code: 'invalid_value',
        path: ['difficulty'],
        message: 'difficulty must be HYPER, ANOTHER or LEGGENDARIA',
      });
  }
  if (issues.length) throw badInput(issues[0].message, issues);
  return { version, limit, offset, levels, difficulties };
}

type Scope = Pick<AreaScope, 'auth' | 'ctx' | 'db' | 'catalogue' | 'loaders' | 'viewer'> & {
  services: { scores: ScoresService };
};

/** Longest daily totalBpiHistory (first to last play day); beyond it the points are weeks. */
export const MAX_DAILY_SPAN_DAYS = 731;
/** Longest weekly totalBpiHistory; beyond it the points are months. */
export const MAX_WEEKLY_SPAN_DAYS = 3653;

export class StatsService {
  constructor(private readonly s: Scope) {}

  private dashboardService: DashboardService | null = null;

  /** The dashboard parts and the cross-player stats (dashboard.service.ts). */
  get dashboard(): DashboardService {
    return (this.dashboardService ??= new DashboardService(this.s));
  }

  private crossPlayerService: CrossPlayerService | null = null;

  /** Rankings and summaries over every player (cross-player.service.ts). */
  get crossPlayer(): CrossPlayerService {
    return (this.crossPlayerService ??= new CrossPlayerService(this.s));
  }

  private isOwner(userId: string): boolean {
    return this.s.viewer?.id === userId;
  }

  /** Query.supporters (supporters.ts). */
  supporters(version: string | null | undefined) {
    return listSupporters(this.s, version);
  }

  /**
   * The guest AAA table (Query.aaaTable, docs/domain/stats.md#aaa-table): every SP HYPER / ANOTHER /
   * LEGGENDARIA chart of one level available in the version, with the EX and BPI of AAA, AA, A and
   * MAX-; no player, so no best (the same pure function as the dashboard's table).
   */
  guestAaaTable(versionArg: string, levelArg: number) {
    const q = orThrow(checkAll({ version: parseStatsVersion(versionArg), levels: parseLevels([levelArg], 'level') }));
    const t = aaaTable(this.s.catalogue, q.version, { levels: q.levels, difficulties: null });
    return { ...t, rows: t.rows.map((x) => ({ ...x, chart: this.s.catalogue.chart(x.chartId) ?? null })) };
  }

  /** The player's status rows (total BPI, arena status) of every version (batched per request). */
  statuses(userId: string): Promise<PlayerVersionStatus[]> {
    return this.s.loaders.stats.statuses.load(userId);
  }

  /** The stored total BPI of a player in a version (null: none yet). */
  async totalBpi(userId: string, version: string): Promise<number | null> {
    return (await this.statuses(userId)).find((s) => s.version === version)?.totalBpi ?? null;
  }

  /** One entry per version (newest first, INF last), masked by the owner's switches for others. */
  async profileStats(user: User): Promise<StatsEntry[]> {
    const rows = await this.statuses(user.id);
    const owner = this.isOwner(user.id);
    return sortVersionsForProfile(rows).map((r) => maskStats(r, owner ? null : user));
  }

  /** Rank among the A-class players of the user's area (null: no game id, not ranked, or hidden by showArea). */
  async areaRank(user: User) {
    if (!user.gameId) return null;
    if (!this.isOwner(user.id) && !user.showArea) return null;
    return this.s.loaders.stats.areaRank.load(user.gameId);
  }

  /** The user's radar in a version: total BPI per category over the category's charts. */
  async radar(userId: string, version: string): Promise<RadarValues> {
    const best = await this.s.services.scores.bests(userId, version);
    const catalogue = this.s.catalogue;
    const bpis = new Map<number, number | null>();
    for (const b of best) {
      const c = catalogue.chart(b.chartId);
      if (c?.playStyle === PlayStyle.SP && c.radarCategory)
        bpis.set(b.chartId, catalogue.currentBpi(b.chartId, b.exScore));
    }
    const valid = [...catalogue.charts()].filter(
      (c) => c.playStyle === PlayStyle.SP && c.radarCategory && chartInVersion(c, version),
    );
    return computeRadar(valid, bpis, (id) => catalogue.chart(id)?.radarCategory);
  }

  /**
   * Weapons (charts most above the player's total BPI) and potential (most below), over the
   * player's bests on BPI charts. A best whose BPI is null (an EX above the current maximum, or a definition that
   * gives none) is left out of both lists and their totals: neither the floor −15 nor the reference's 0 is a BPI
   * the player earned (docs/parity.md, item 6). REST reads this through the same GraphQL document.
   */
  async recommended(userId: string, q: RecommendedQuery) {
    const { version, limit, offset, levels, difficulties } = parseRecommendedQuery(q);
    const cat = this.s.catalogue;
    const filter: ChartFilter = { levels: levels.length ? levels : [...BPI_LEVELS], difficulties };
    const [stored, rows] = await Promise.all([
      this.totalBpi(userId, version),
      this.s.services.scores.bests(userId, version),
    ]);
    const total = stored ?? BPI_FLOOR;
    // Rank light candidates; only the rows of the two returned pages become full entries (a nested
    // read asks this for every follower, usually for a handful of rows out of hundreds).
    const scored: { c: CatalogueChart; b: (typeof rows)[number]; bpi: number; bpiDiff: number }[] = [];
    for (const b of rows) {
      const c = cat.chart(b.chartId);
      if (!c?.definition || !matchesFilter(c, filter)) continue;
      const bpi = cat.currentBpi(b.chartId, b.exScore);
      if (bpi === null) continue;
      scored.push({ c, b, bpi, bpiDiff: round2(bpi - total) });
    }
    type Scored = (typeof scored)[number];
    const tie = (a: Scored, b: Scored) => a.c.title.localeCompare(b.c.title) || a.c.id - b.c.id;
    const page = (sorted: Scored[]) =>
      sorted.slice(offset, offset + limit).map(({ c, b, bpi, bpiDiff }) => ({
        ...entry(c, version, { ...b, bpi }),
        logId: b.exScoreId,
        scoreAt: b.playedAt,
        bpiDiff,
      }));
    return {
      totalBpi: total,
      weapons: { data: page([...scored].sort((a, b) => b.bpiDiff - a.bpiDiff || tie(a, b))), total: scored.length },
      potential: { data: page([...scored].sort((a, b) => a.bpiDiff - b.bpiDiff || tie(a, b))), total: scored.length },
    };
  }

  /** Daily (weekly, monthly) total BPI trend by play time (JST days); days without plays carry the total. */
  /** One computation per request for the same arguments (24 aliases of one history are computed once). */
  private readonly histories = new Map<string, ReturnType<StatsService['computeTotalBpiHistory']>>();

  totalBpiHistory(userId: string, versionArg: string | null | undefined, groupByArg: string | null | undefined) {
    const key = `${userId}\u0000${versionArg ?? ''}\u0000${groupByArg ?? ''}`;
    let h = this.histories.get(key);
    if (!h) this.histories.set(key, (h = this.computeTotalBpiHistory(userId, versionArg, groupByArg)));
    return h;
  }

  private async computeTotalBpiHistory(
    userId: string,
    versionArg: string | null | undefined,
    groupByArg: string | null | undefined,
  ) {
    const version = parseVersion(versionArg);
    const groupBy = groupByArg ?? 'day';
    if (!['day', 'week', 'month'].includes(groupBy))
      throw badInput('groupBy must be day, week or month', [
        { code: 'invalid_value', path: ['groupBy'], message: 'groupBy must be day, week or month' },
      ]);
    const played = await playDayTotals(this.s.catalogue, version, await loadPlays(this.s.db, { userId, version }));
    // A long series is aggregated, never refused (docs/limits-and-pool.md): DAY over more than
    // MAX_DAILY_SPAN_DAYS becomes WEEK, WEEK over more than MAX_WEEKLY_SPAN_DAYS becomes MONTH.
    const span = played.length
      ? (Date.parse(`${played[played.length - 1].date}T00:00:00Z`) - Date.parse(`${played[0].date}T00:00:00Z`)) /
          86400_000 +
        1
      : 0;
    let unit = groupBy;
    if (unit === 'day' && span > MAX_DAILY_SPAN_DAYS) unit = 'week';
    if (unit === 'week' && span > MAX_WEEKLY_SPAN_DAYS) unit = 'month';
    // every calendar day from the first to the last play day (days without plays carry the total)
    const days: { date: string; totalBpi: number; count: number; plays: unknown[] }[] = [];
    for (const d of played) {
      const last = days[days.length - 1];
      if (last) {
        for (
          let t = Date.parse(`${last.date}T00:00:00Z`) + 86400_000;
          t < Date.parse(`${d.date}T00:00:00Z`);
          t += 86400_000
        ) {
          days.push({
            date: new Date(t).toISOString().slice(0, 10),
            totalBpi: last.totalBpi,
            count: last.count,
            plays: [],
          });
        }
      }
      days.push(d);
    }
    const out = new Map<string, { date: string; totalBpi: number; count: number; updated: number }>();
    for (const d of days) {
      const key = unit === 'day' ? d.date : unit === 'month' ? d.date.slice(0, 7) : weekKey(d.date);
      const prev = out.get(key);
      out.set(key, { date: key, totalBpi: d.totalBpi, count: d.count, updated: (prev?.updated ?? 0) + d.plays.length });
    }
    return [...out.values()];
  }
}

function maskStats(r: PlayerVersionStatus, maskFor: User | null): StatsEntry {
  const showClass = !maskFor || maskFor.showArenaClass;
  const showRank = !maskFor || maskFor.showArenaRank;
  const showArea = !maskFor || maskFor.showArea;
  const showGrade = !maskFor || maskFor.showGrade;
  return {
    version: r.version,
    totalBpi: r.totalBpi,
    arenaClass: showClass ? r.arenaClass : null,
    arenaRank: showRank ? r.arenaRank : null,
    area: showArea ? r.area : null,
    gradeSp: showGrade ? r.gradeSp : null,
    gradeDp: showGrade ? r.gradeDp : null,
    updatedAt: r.updatedAt,
    bestArenaClass: showClass ? r.bestArenaClass : null,
    bestArenaClassAt: showClass ? r.bestArenaClassAt : null,
  };
}
