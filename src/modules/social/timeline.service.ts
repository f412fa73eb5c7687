import { type ClearLamp } from '../../domain/constants';
import { badInput } from '../../errors';
import { Prisma } from '../../generated/prisma/client';
import { keyset, parseVersion } from '../../graphql/args';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';
import { visibleThroughFollow } from '../../db/visibility';

/** Cursor kinds of the timeline: [playedAt, score id]. */
const TIMELINE_KEY = ['time', 'int'] as const;
import type { AreaScope } from '../area';

/** A page of the feed; its total is counted only when asked for (countAll). */
export type TimelinePage = Omit<Page<TimelineRow>, 'totalCount'> & { countAll(): Promise<number> };

export type TimelineModeValue = 'ALL' | 'PLAYED' | 'OVERTAKEN';

export interface TimelineRow {
  id: number;
  userId: string;
  chartId: number;
  version: string;
  playedAt: Date;
  exScore: number;
  bpi: number | null;
  previousExScore: number | null;
  diffExScore: number | null;
  previousBpi: number | null;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  isOvertaken: boolean;
  viewerScore: { exScore: number; bpi: number | null; diffExScore: number } | null;
}

interface RawRow {
  id: number;
  userId: string;
  chartId: number;
  version: string;
  playedAt: Date | string;
  exScore: number;
  bpi: number | null;
  prevEx: number | null;
  prevBpi: number | null;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  viewerEx: number | null;
}

/** Timestamps from raw SQL: Date, or an ISO string without zone (UTC, as Prisma stores them). */
function asDate(v: Date | string): Date {
  if (v instanceof Date) return v;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`);
}

/** Prisma stores DateTime as UTC in `timestamp(3)`: compare with a zone-less literal. */
const tsParam = (d: Date) => Prisma.sql`${d.toISOString().replace('Z', '')}::timestamp(3)`;

/**
 * The score feed of the users the viewer follows AND may see (public, or approved follower):
 * each play (Score row) in the version, newest first, cursor over (playedAt, id).
 *  - previousExScore: the player's best EX on the chart in the version before this play
 *  - viewerScore: the viewer's best in the version (its BPI under the current definition: catalogue.currentBpi)
 *  - isOvertaken: previousExScore (or −1) ≤ viewer's best < this play's EX
 */
export class TimelineService {
  constructor(private readonly s: Pick<AreaScope, 'db' | 'catalogue'>) {}

  private get db() {
    return this.s.db;
  }

  /** The player's best EX on the chart in the version before play `s` (a LATERAL subquery). */
  private static readonly PREV = Prisma.sql`LEFT JOIN LATERAL (
        SELECT max(p."exScore") AS ex FROM "Score" p
        WHERE p."userId" = s."userId" AND p."chartId" = s."chartId" AND p."version" = s."version"
          AND (p."playedAt", p."id") < (s."playedAt", s."id")
      ) prev ON true`;

  /** The play's previous play of the same chart and version (its BPI: prevBpi). */
  private static readonly PREV_PLAY = Prisma.sql`
      LEFT JOIN LATERAL (
        SELECT p."bpi" FROM "Score" p
        WHERE p."userId" = s."userId" AND p."chartId" = s."chartId" AND p."version" = s."version"
          AND (p."playedAt", p."id") < (s."playedAt", s."id")
        ORDER BY p."playedAt" DESC, p."id" DESC LIMIT 1
      ) prevplay ON true`;

  /** Visible plays of followees matching `where`, newest first (prev.ex is joined only when `withPrev`). */
  private candidates(
    viewerId: string,
    where: Prisma.Sql,
    withPrev: boolean,
    limit: number | null,
    withChart = false,
    backward = false,
  ): Prisma.Sql {
    return Prisma.sql`
      SELECT s."id", s."userId", s."chartId", s."version", s."playedAt", s."exScore", s."bpi", s."clearLamp", s."missCount",
             vb."exScore" AS "viewerEx"
      FROM "Score" s
      JOIN "Follow" f ON f."followerId" = ${viewerId} AND f."followingId" = s."userId"
      JOIN "User" u ON u."id" = s."userId"
      LEFT JOIN "BestScore" vb ON vb."userId" = ${viewerId} AND vb."version" = s."version" AND vb."chartId" = s."chartId"
      ${withPrev ? TimelineService.PREV : Prisma.empty}
      ${withChart ? Prisma.sql`JOIN "Chart" c ON c."id" = s."chartId" JOIN "Song" so ON so."id" = c."songId"` : Prisma.empty}
      WHERE ${visibleThroughFollow()} AND ${where}
        -- another player's play on a provisional chart shows only to a viewer who holds it too (docs/imports-provisional.md)
        AND (vb."userId" IS NOT NULL OR s."chartId" NOT IN (SELECT pc."id" FROM "Chart" pc WHERE pc."provisional"))
      ${backward ? Prisma.sql`ORDER BY s."playedAt" ASC, s."id" ASC` : Prisma.sql`ORDER BY s."playedAt" DESC, s."id" DESC`}
      ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
  }

  /**
   * One page: the page's rows first, then the per-row lookups (previous best / previous BPI) for
   * those rows only. Newest first; oldest first when paging backwards (keysetConnection turns it).
   */
  private query(
    viewerId: string,
    where: Prisma.Sql,
    withPrev: boolean,
    limit: number,
    withChart = false,
    backward = false,
  ): Prisma.Sql {
    return Prisma.sql`
      SELECT s."id", s."userId", s."chartId", s."version", s."playedAt", s."exScore", s."bpi", s."clearLamp"::text AS "clearLamp", s."missCount",
             prev.ex AS "prevEx", prevplay.bpi AS "prevBpi", s."viewerEx"
      FROM (${this.candidates(viewerId, where, withPrev, limit, withChart, backward)}) s
      ${TimelineService.PREV}
      ${TimelineService.PREV_PLAY}
      ${backward ? Prisma.sql`ORDER BY s."playedAt" ASC, s."id" ASC` : Prisma.sql`ORDER BY s."playedAt" DESC, s."id" DESC`}`;
  }

  private toRow(r: RawRow): TimelineRow {
    const prev = r.prevEx === null || r.prevEx === undefined ? null : Number(r.prevEx);
    const viewerEx = r.viewerEx === null || r.viewerEx === undefined ? null : Number(r.viewerEx);
    const exScore = Number(r.exScore);
    const chartId = Number(r.chartId);
    return {
      id: Number(r.id),
      userId: r.userId,
      chartId,
      version: r.version,
      playedAt: asDate(r.playedAt),
      exScore,
      bpi: r.bpi === null ? null : Number(r.bpi),
      previousExScore: prev,
      diffExScore: prev === null ? null : exScore - prev,
      previousBpi: r.prevBpi === null || r.prevBpi === undefined ? null : Number(r.prevBpi),
      clearLamp: r.clearLamp ?? null,
      missCount: r.missCount === null || r.missCount === undefined ? null : Number(r.missCount),
      isOvertaken: viewerEx !== null && viewerEx >= (prev ?? -1) && viewerEx < exScore,
      viewerScore:
        viewerEx === null
          ? null
          : { exScore: viewerEx, bpi: this.s.catalogue.currentBpi(chartId, viewerEx), diffExScore: viewerEx - exScore },
    };
  }

  private modeSql(mode: TimelineModeValue): Prisma.Sql {
    if (mode === 'PLAYED') return Prisma.sql`vb."exScore" IS NOT NULL`;
    if (mode === 'OVERTAKEN')
      return Prisma.sql`vb."exScore" IS NOT NULL AND vb."exScore" < s."exScore" AND vb."exScore" >= COALESCE(prev.ex, -1)`;
    return Prisma.sql`true`;
  }

  async timeline(
    viewerId: string,
    opts: {
      mode?: TimelineModeValue | null;
      version?: string | null;
      first?: number | null;
      after?: string | null;
      last?: number | null;
      before?: string | null;
      /** Part of the player's name or the song title (plain text: % and _ match themselves). */
      search?: string | null;
      levels?: number[] | null;
      difficulties?: string[] | null;
    },
  ): Promise<TimelinePage> {
    if (opts.levels?.some((l) => !Number.isInteger(l) || l < 1 || l > 12)) {
      throw badInput('levels must be between 1 and 12', [
        { code: 'too_big', path: ['levels'], message: 'levels must be between 1 and 12' },
      ]);
    }
    const version = parseVersion(opts.version);
    const ks = keyset(
      { first: opts.first, after: opts.after, last: opts.last, before: opts.before },
      'timeline',
      TIMELINE_KEY,
    );
    const size = ks.size;
    const mode = opts.mode ?? 'ALL';
    const filters: Prisma.Sql[] = [];
    const search = opts.search?.trim();
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      filters.push(Prisma.sql`(u."name" ILIKE ${like} ESCAPE '\\' OR so."title" ILIKE ${like} ESCAPE '\\')`);
    }
    if (opts.levels?.length) filters.push(Prisma.sql`c."level" IN (${Prisma.join(opts.levels)})`);
    if (opts.difficulties?.length)
      filters.push(Prisma.sql`c."difficulty"::text IN (${Prisma.join(opts.difficulties)})`);
    const withChart = filters.length > 0;
    const base = Prisma.sql`s."version" = ${version} AND ${this.modeSql(mode)}${filters.length ? Prisma.sql` AND ${Prisma.join(filters, ' AND ')}` : Prisma.empty}`;
    let where = base;
    if (ks.key) {
      const [at, id] = ks.key;
      where = ks.backward
        ? Prisma.sql`${base} AND (s."playedAt", s."id") > (${tsParam(at)}, ${id})`
        : Prisma.sql`${base} AND (s."playedAt", s."id") < (${tsParam(at)}, ${id})`;
    }
    const withPrev = mode === 'OVERTAKEN';
    const raw = await this.db.$queryRaw<RawRow[]>(
      this.query(viewerId, where, withPrev, size + 1, withChart, ks.backward),
    );
    const rows = raw.map((r) => this.toRow(r));
    const { edges, pageInfo } = keysetConnection(
      rows,
      ks,
      (node) => keyCursor('timeline', TIMELINE_KEY, [node.playedAt, node.id]),
      0,
    );
    const db = this.db;
    const countSql = Prisma.sql`SELECT count(*)::int AS n FROM (${this.candidates(viewerId, base, withPrev, null, withChart)}) t`;
    let count: Promise<number> | undefined;
    return {
      edges,
      pageInfo,
      // computed only when asked for (it scans the whole feed): TimelineConnection.totalCount
      countAll: () => (count ??= db.$queryRaw<{ n: number }[]>(countSql).then((r) => Number(r[0]?.n ?? 0))),
    };
  }

  /**
   * Plays as timeline entries seen by `viewerId` (`node(id:)` of TimelineEntry), whoever played
   * them — NODE_RULES.TimelineEntry decides who may see them (as the player's plays) — in the
   * order of `ids`, null for an unknown id. viewerScore / isOvertaken are the caller's (none
   * signed out).
   */
  async entriesById(viewerId: string | null, ids: readonly number[]): Promise<(TimelineRow | null)[]> {
    if (!ids.length) return [];
    const raw = await this.db.$queryRaw<RawRow[]>(Prisma.sql`
      SELECT s."id", s."userId", s."chartId", s."version", s."playedAt", s."exScore", s."bpi", s."clearLamp"::text AS "clearLamp", s."missCount",
             prev.ex AS "prevEx", prevplay.bpi AS "prevBpi", vb."exScore" AS "viewerEx"
      FROM "Score" s
      LEFT JOIN "BestScore" vb ON vb."userId" = ${viewerId ?? ''} AND vb."version" = s."version" AND vb."chartId" = s."chartId"
      ${TimelineService.PREV}
      ${TimelineService.PREV_PLAY}
      WHERE s."id" IN (${Prisma.join([...ids])})`);
    const byId = new Map(raw.map((r) => [Number(r.id), this.toRow(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** One play as a timeline entry for the viewer (null when not in their feed / not visible). */
  async entry(viewerId: string, scoreId: number): Promise<TimelineRow | null> {
    const raw = await this.db.$queryRaw<RawRow[]>(this.query(viewerId, Prisma.sql`s."id" = ${scoreId}`, false, 1));
    return raw[0] ? this.toRow(raw[0]) : null;
  }
}
