/**
 * Logs, in detail: one batch with its scores and the rivals overtaken (owner only), and the
 * period details (day / week / month, by import or play time) with the neighbouring periods.
 */
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { badInput, notFound } from '../../errors';
import { parseVersion } from '../../graphql/args';
import type { AreaScope } from '../area';
import { withRivalRanks, type RivalRankInfo } from './logs.rank';
import type { OvertakenData, RivalsService } from '../rivals/rivals.service';
import { chartFields, jstDate, loadPlays, playDayTotals, replay, type PlayRow, type ReplayBest } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';
import { computeTotal } from '../scores/totals.service';

/** JST range of a day, ISO week (Mon–Sun) or month containing `date` (YYYY-MM-DD), as UTC instants. */
export function jstRange(date: string, unit: string): { start: Date; end: Date } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw badInput('date must be YYYY-MM-DD', [
      { code: 'invalid_date', path: ['date'], message: 'date must be YYYY-MM-DD' },
    ]);
  }
  const d = new Date(`${date}T00:00:00Z`);
  let s: Date;
  let e: Date;
  if (unit === 'day') {
    s = d;
    e = new Date(d.getTime() + 86400_000);
  } else if (unit === 'week') {
    s = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86400_000);
    e = new Date(s.getTime() + 7 * 86400_000);
  } else if (unit === 'month') {
    s = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    e = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  } else {
    throw badInput('unit must be day, week or month', [
      { code: 'invalid_value', path: ['unit'], message: 'unit must be day, week or month' },
    ]);
  }
  const off = 9 * 3600_000;
  return { start: new Date(s.getTime() - off), end: new Date(e.getTime() - off - 1) };
}

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'events' | 'viewer' | 'loaders'> & {
  services: { scores: ScoresService; rivals: RivalsService };
};

/** One batch, one period (`ctx.services.logs.details`). */
export class LogsDetailService {
  constructor(private readonly s: Scope) {}

  private isOwner(userId: string): boolean {
    return this.s.viewer?.id === userId;
  }

  /**
   * Score entries of a set of plays: for each chart, my best after them ("current", the replayed
   * best of all my plays up to the last of them) and before them ("previous"), plus — when
   * `withRivals` — the followed rivals whose best I passed.
   */
  private async periodEntries(
    userId: string,
    version: string,
    inPeriod: (p: PlayRow) => boolean,
    withRivals: boolean,
    order: 'createdAt' | 'playedAt' = 'createdAt',
  ) {
    const plays = await loadPlays(this.s.db, { userId, version });
    // walk plays in the period's time axis (import time: id order; play time: playedAt, then id)
    if (order === 'playedAt') plays.sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id);
    const before = new Map<number, ReplayBest>();
    const after = new Map<number, ReplayBest>();
    const touched = new Set<number>();
    let firstAt: Date | null = null;
    let lastAt: Date | null = null;
    // "previous" = the best from plays outside (before) the period; "current" = including it
    for (const p of plays) {
      if (inPeriod(p)) {
        touched.add(p.chartId);
        firstAt ??= p.createdAt;
        lastAt = p.createdAt;
        replay([p], after);
      } else if (!touched.has(p.chartId)) {
        replay([p], before);
        replay([p], after);
      }
    }
    const overtaken = withRivals
      ? await this.s.services.rivals.overtakenInPeriod(userId, version, touched, before, after, lastAt)
      : new Map<number, OvertakenData[]>();
    const entries = [];
    for (const chartId of touched) {
      const c = this.s.catalogue.chart(chartId);
      if (!c) continue;
      const cur = after.get(chartId)!;
      const prev = before.get(chartId) ?? null;
      entries.push({
        ...chartFields(c),
        current: {
          exScore: cur.exScore,
          bpi: cur.bpi,
          clearLamp: cur.clearLamp,
          missCount: cur.missCount,
          playedAt: cur.playedAt,
        },
        previous: prev
          ? {
              exScore: prev.exScore,
              bpi: prev.bpi,
              clearLamp: prev.clearLamp,
              missCount: prev.missCount,
              playedAt: prev.playedAt,
            }
          : null,
        exDiff: cur.exScore - (prev?.exScore ?? 0),
        bpiDiff: round2((cur.bpi ?? BPI_FLOOR) - (prev ? (prev.bpi ?? BPI_FLOOR) : BPI_FLOOR)),
        overtaken: overtaken.get(chartId) ?? [],
        rivalRankInfo: null as RivalRankInfo | null,
      });
    }
    entries.sort((a, b) => b.bpiDiff - a.bpiDiff || a.title.localeCompare(b.title));
    return { entries, firstAt, lastAt };
  }

  /** One batch with its scores (current vs before the batch) and the rivals overtaken (owner only). */
  async batch(userId: string, batchId: string) {
    const viewerIsOwner = this.isOwner(userId);
    const batch = await this.s.db.importBatch.findFirst({ where: { id: batchId, userId } });
    if (!batch) throw notFound('Batch not found.');
    const { entries } = await this.periodEntries(userId, batch.version, (p) => p.batchId === batchId, viewerIsOwner);
    const day = jstRange(jstDate(batch.createdAt), 'day');
    const ref = { id: true, createdAt: true, totalBpi: true } as const;
    const where = { userId, version: batch.version };
    const [prev, next, prevDay, nextDay, dayBatches] = await Promise.all([
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { lt: batch.createdAt } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { gt: batch.createdAt } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { lt: day.start } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: ref,
      }),
      this.s.db.importBatch.findFirst({
        where: { ...where, createdAt: { gt: day.end } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      this.s.db.importBatch.findMany({
        where: { ...where, createdAt: { gte: day.start, lte: day.end } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: ref,
      }),
      withRivalRanks(this.s.db, userId, batch.version, entries),
    ]);
    const link = (b: { id: string; createdAt: Date; totalBpi: number | null } | null) =>
      b ? { id: b.id, createdAt: b.createdAt, totalBpi: b.totalBpi ?? BPI_FLOOR } : null;
    const rivals = new Map<string, { rivalUserId: string; rivalName: string; count: number }>();
    for (const e of entries)
      for (const o of e.overtaken)
        rivals.set(o.rivalUserId, {
          rivalUserId: o.rivalUserId,
          rivalName: o.rivalName,
          count: (rivals.get(o.rivalUserId)?.count ?? 0) + 1,
        });
    return {
      id: batch.id,
      userId,
      version: batch.version,
      source: batch.source as string,
      createdAt: batch.createdAt,
      previousTotalBpi: batch.previousTotalBpi ?? BPI_FLOOR,
      totalBpi: batch.totalBpi ?? BPI_FLOOR,
      scores: entries,
      rivalsOvertaken: [...rivals.values()],
      prevBatchId: prev?.id ?? null,
      nextBatchId: next?.id ?? null,
      prevBatch: link(prev),
      nextBatch: link(next),
      prevDayBatch: link(prevDay),
      nextDayBatch: link(nextDay),
      dayBatches: dayBatches.map((b) => link(b)!),
    };
  }

  /** Score details of a day/week/month, grouped by import time (createdAt) or play time (playedAt). */
  async scoreDetails(userId: string, args: { version?: string | null; date: string; unit: string; groupedBy: string }) {
    const version = parseVersion(args.version);
    const { date, unit, groupedBy } = args;
    const viewerIsOwner = this.isOwner(userId);
    if (!['createdAt', 'playedAt'].includes(groupedBy))
      throw badInput('groupedBy must be createdAt or playedAt', [
        { code: 'invalid_value', path: ['groupedBy'], message: 'groupedBy must be createdAt or playedAt' },
      ]);
    const { start, end } = jstRange(date, unit);
    const inRange = (p: PlayRow) => {
      const t = (groupedBy === 'createdAt' ? p.createdAt : p.playedAt).getTime();
      return t >= start.getTime() && t <= end.getTime();
    };
    const { entries } = await this.periodEntries(
      userId,
      version,
      inRange,
      viewerIsOwner,
      groupedBy === 'playedAt' ? 'playedAt' : 'createdAt',
    );
    const [batchCount] = await Promise.all([
      groupedBy === 'createdAt'
        ? this.s.db.importBatch.count({ where: { userId, version, createdAt: { gte: start, lte: end } } })
        : 0,
      withRivalRanks(this.s.db, userId, version, entries),
    ]);
    // total BPI at the end of the period (replay of plays up to then, the one total definition)
    const plays = (await loadPlays(this.s.db, { userId, version })).filter(
      (p) => (groupedBy === 'createdAt' ? p.createdAt : p.playedAt) <= end,
    );
    const bests = replay(
      groupedBy === 'createdAt'
        ? plays
        : [...plays].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id),
    );
    const total = computeTotal(this.s.catalogue, version, new Map([...bests].map(([k, b]) => [k, b.bpi])));
    const { previous, next } = await this.periodNeighbours(userId, version, groupedBy, start, end);
    return {
      start,
      end,
      unit,
      groupedBy,
      period: unit,
      basis: groupedBy,
      label: date,
      totalBpi: total.totalBpi,
      batchCount,
      scores: entries,
      previous,
      next,
    };
  }

  /**
   * Navigation of a period (the reference's pagination prev / next): by import time, the last
   * batch before the period and the first after it; by play time, the nearest play day before and
   * after it, with the total BPI after that day (the play-day timeline). null at either end.
   */
  private async periodNeighbours(userId: string, version: string, groupedBy: string, start: Date, end: Date) {
    type Link = { date: string; createdAt: Date; totalBpi: number; batchId: string | null };
    if (groupedBy === 'createdAt') {
      const ref = { id: true, createdAt: true, totalBpi: true } as const;
      const [p, n] = await Promise.all([
        this.s.db.importBatch.findFirst({
          where: { userId, version, createdAt: { lt: start } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          select: ref,
        }),
        this.s.db.importBatch.findFirst({
          where: { userId, version, createdAt: { gt: end } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: ref,
        }),
      ]);
      const link = (b: typeof p): Link | null =>
        b
          ? { date: jstDate(b.createdAt), createdAt: b.createdAt, totalBpi: b.totalBpi ?? BPI_FLOOR, batchId: b.id }
          : null;
      return { previous: link(p), next: link(n) };
    }
    const days = await playDayTotals(this.s.catalogue, version, await loadPlays(this.s.db, { userId, version }));
    const first = jstDate(start);
    const last = jstDate(end);
    let previous: Link | null = null;
    let next: Link | null = null;
    for (const d of days) {
      if (d.date < first) previous = { date: d.date, createdAt: d.lastPlayedAt, totalBpi: d.totalBpi, batchId: null };
      else if (d.date > last && !next)
        next = { date: d.date, createdAt: d.lastPlayedAt, totalBpi: d.totalBpi, batchId: null };
    }
    return { previous, next };
  }
}
