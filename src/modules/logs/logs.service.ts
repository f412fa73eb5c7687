/**
 * Logs: the import batch timeline (per batch, per play day), one batch with its scores and the
 * rivals overtaken (owner only), period details (day/week/month by import or play time), the
 * version difference summary, and batch deletion (which recomputes the bests and the totals of
 * the later batches).
 */
import { retryTransaction } from '../../db/retry';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { GAME_VERSIONS, VERSION_TITLES, versionIndex, type GameVersion } from '../../domain/constants';
import { notFound } from '../../errors';
import { cardVersionLabel, renderBatchCard, type ChartTheme } from '../../domain/charts';
import { keyset, parseVersion, rangeArgs, type KeysetArgs } from '../../graphql/args';
import { keyCursor, keysetConnection, keysetSlice, prismaKeyset } from '../../graphql/connection';
import type { AreaScope } from '../area';
import type { RivalsService } from '../rivals/rivals.service';
import { loadPlays, playData, playDayTotals, type PlayDay, type PlayRow } from '../scores/plays';
import { rebuildDerived } from '../scores/rebuild.service';
import { lockCurrentDefinitions, withCurrentCatalogue } from '../scores/current-definitions';
import type { ScoresService } from '../scores/scores.service';
import { lockPlayer } from '../scores/totals.service';
import { LogsDetailService } from './logs.detail.service';
import { dropUnheldProvisional } from '../catalogue/provisional.service';
import { CATALOGUE_CACHE } from '../catalogue/catalogue';

/** `topN` of the timelines: plays listed per batch or day, 1–100 (default 5, as the reference). */
const topNArg = (topN: number | null | undefined) =>
  rangeArgs(topN, null, ['topN', 'topN'], { lo: 1, hi: 100, integer: true }).min ?? 5;

/** Plays listed per batch where no `topN` is asked (a node, a play's batch). */
const TOP_N = 5;

type BatchRow = Awaited<ReturnType<AreaScope['db']['importBatch']['findMany']>>[number];

/** The top plays of each batch (highest BPI first), in one statement (a batch can hold thousands of plays). */
export async function batchTopPlays(
  db: AreaScope['db'],
  batchIds: readonly string[],
  topN = TOP_N,
): Promise<Map<string, PlayRow[]>> {
  const plays = batchIds.length
    ? await db.$queryRawUnsafe<PlayRow[]>(
        `SELECT "id", "chartId", "version", "batchId", "exScore", "clearLamp"::text AS "clearLamp", "missCount", "bpi", "playedAt", "createdAt"
           FROM (SELECT s.*, row_number() OVER (PARTITION BY s."batchId" ORDER BY s."bpi" DESC NULLS LAST, s."id") AS rn
                   FROM "Score" s WHERE s."batchId" IN (SELECT jsonb_array_elements_text($1::jsonb))) t
          WHERE rn <= $2 ORDER BY "batchId", rn`,
        JSON.stringify(batchIds),
        topN,
      )
    : [];
  const byBatch = new Map<string, PlayRow[]>();
  for (const p of plays) {
    const list = byBatch.get(p.batchId);
    if (list) list.push(p);
    else byBatch.set(p.batchId, [p]);
  }
  return byBatch;
}

/** A Batch object (GraphQL Batch) of an import-batch row and its top plays; `userId` is kept for the rule table (node(id:)). */
export function batchNode(
  catalogue: AreaScope['catalogue'],
  b: BatchRow,
  top: readonly PlayRow[] | undefined,
  topN = TOP_N,
) {
  return {
    id: b.id,
    userId: b.userId,
    version: b.version,
    source: b.source as string,
    createdAt: b.createdAt,
    rowCount: b.rowCount,
    songCount: b.updatedCount,
    bpiUpdatedCount: b.bpiUpdatedCount,
    previousTotalBpi: b.previousTotalBpi ?? BPI_FLOOR,
    totalBpi: b.totalBpi ?? BPI_FLOOR,
    // a first batch (no previous total) differs by 0, as the reference's first log
    diff: b.previousTotalBpi === null ? 0 : round2((b.totalBpi ?? BPI_FLOOR) - b.previousTotalBpi),
    topScores: (top ?? []).slice(0, topN).map((p) => playData(catalogue, p)),
  };
}

type PageArgs = KeysetArgs;

/** Cursor kinds of batches: [createdAt, id]; of play days: [JST date]. */
const BATCH_KEY = ['time', 'str'] as const;
const PLAY_DAY_KEY = ['str'] as const;

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'caches' | 'events' | 'viewer' | 'loaders' | 'onPlayerLocked'> & {
  services: { scores: ScoresService; rivals: RivalsService };
};

export class LogsService {
  constructor(private readonly s: Scope) {}

  private isOwner(userId: string): boolean {
    return this.s.viewer?.id === userId;
  }

  private detailService: LogsDetailService | null = null;

  /** One batch, one period (logs.detail.service.ts). */
  get details(): LogsDetailService {
    return (this.detailService ??= new LogsDetailService(this.s));
  }

  /** Batch objects by id (the request's loader; null for an unknown id). */
  async batchesById(ids: readonly string[]) {
    const loaded = await this.s.loaders.logs.batches.loadMany([...ids]);
    return loaded.map((r) => (r && !(r instanceof Error) ? batchNode(this.s.catalogue, r.row, r.top) : null));
  }

  /**
   * An import batch's share card (Query.batchCard; GET /api/v1/batches/{batchId}/card.png): the
   * player, the version, total BPI before → after and the six plays of highest BPI. The rule
   * (VISIBLE, target the batch's player) read the batch through the same loader (batchRows).
   */
  async batchCard(batchId: string, theme: ChartTheme): Promise<{ isPublic: boolean; svg: string }> {
    const batch = await this.s.loaders.logs.batchRows.load(batchId);
    if (!batch) throw notFound('Batch not found');
    const user = await this.s.loaders.users.byId.load(batch.userId);
    if (!user) throw notFound('User not found');
    const plays = await this.s.db.score.findMany({
      where: { batchId },
      orderBy: [{ bpi: { sort: 'desc', nulls: 'last' } }, { id: 'asc' }],
      take: 6,
    });
    const improved = plays.flatMap((p) => {
      const c = this.s.catalogue.chart(p.chartId);
      return c ? [{ title: c.title, difficulty: c.difficulty, level: c.level, exScore: p.exScore, bpi: p.bpi }] : [];
    });
    const svg = renderBatchCard(
      {
        name: user.name,
        versionLabel: cardVersionLabel(batch.version),
        importedAt: batch.createdAt,
        previousTotalBpi: batch.previousTotalBpi,
        totalBpi: batch.totalBpi,
        updatedCount: batch.updatedCount,
        improved,
      },
      theme,
    );
    return { isPublic: user.isPublic, svg };
  }

  /** Batches of a version, newest first: keyset pages over (createdAt, id), forward or backward. */
  async batches(userId: string, args: PageArgs & { version?: string | null; topN?: number | null }) {
    const version = parseVersion(args.version);
    const tag = `batches:${version}`;
    const ks = keyset(args, tag, BATCH_KEY);
    const topN = topNArg(args.topN);
    const q = prismaKeyset(ks, [
      ['createdAt', 'desc'],
      ['id', 'desc'],
    ]);
    const [rows, totalCount] = await Promise.all([
      this.s.db.importBatch.findMany({ where: { userId, version, ...q.where }, orderBy: q.orderBy, take: q.take }),
      this.s.db.importBatch.count({ where: { userId, version } }),
    ]);
    const page = keysetConnection(rows, ks, (b) => keyCursor(tag, BATCH_KEY, [b.createdAt, b.id]), totalCount);
    const top = await batchTopPlays(
      this.s.db,
      page.edges.map((e) => e.node.id),
      topN,
    );
    return {
      ...page,
      edges: page.edges.map((e) => ({
        cursor: e.cursor,
        node: batchNode(this.s.catalogue, e.node, top.get(e.node.id), topN),
      })),
    };
  }

  /** One entry per JST play day (total BPI recomputed by replaying plays), newest first. */
  async playDays(userId: string, args: PageArgs & { version?: string | null; topN?: number | null }) {
    const version = parseVersion(args.version);
    const tag = `playDays:${version}`;
    const ks = keyset(args, tag, PLAY_DAY_KEY);
    const topN = topNArg(args.topN);
    const days = await playDayTotals(this.s.catalogue, version, await loadPlays(this.s.db, { userId, version }));
    // newest first; the key is the JST date (one entry per date)
    const all = days.map((_d, i) => this.playDayView(userId, version, days, i, topN)).reverse();
    const rows = keysetSlice(all, ks, (d, [date]) => (d.date > date ? -1 : d.date < date ? 1 : 0));
    return keysetConnection(rows, ks, (d) => keyCursor(tag, PLAY_DAY_KEY, [d.date]), all.length);
  }

  /** One play day of a player in a version (its node key: userId:version:date, PlayDay's global id). */
  private playDayView(userId: string, version: string, days: PlayDay[], i: number, topN: number) {
    const d = days[i];
    return {
      id: d.date,
      userId,
      version,
      date: d.date,
      totalBpi: d.totalBpi,
      songCount: d.plays.length,
      // the first play day differs by 0 (docs/domain/score-lists.md#play-days)
      diff: i > 0 ? round2(d.totalBpi - days[i - 1].totalBpi) : 0,
      createdAt: d.lastPlayedAt,
      topScores: [...d.plays]
        .sort((a, b) => (b.bpi ?? -Infinity) - (a.bpi ?? -Infinity))
        .slice(0, topN)
        .map((p) => playData(this.s.catalogue, p)),
    };
  }

  /**
   * Play days by node key "userId:version:date" (`node(id:)`), null for a malformed key or a day
   * without plays; topScores as the list's default (5). One load of plays per player and version.
   */
  async playDaysByKey(keys: readonly string[]) {
    const parsed = keys.map((k) => /^([0-9a-f-]{36}):([A-Za-z0-9]{1,8}):(\d{4}-\d{2}-\d{2})$/.exec(k));
    const groups = new Map<string, Promise<PlayDay[]>>();
    const daysOf = (userId: string, version: string) => {
      const g = `${userId}:${version}`;
      if (!groups.has(g))
        groups.set(
          g,
          loadPlays(this.s.db, { userId, version }).then((plays) => playDayTotals(this.s.catalogue, version, plays)),
        );
      return groups.get(g)!;
    };
    return Promise.all(
      parsed.map(async (m) => {
        if (!m || !(GAME_VERSIONS as readonly string[]).includes(m[2])) return null;
        const days = await daysOf(m[1], m[2]);
        const i = days.findIndex((d) => d.date === m[3]);
        return i < 0 ? null : this.playDayView(m[1], m[2], days, i, topNArg(null));
      }),
    );
  }

  /** Batch details by batch id (`node(id:)`): as User.batch shows them to the caller; null for an unknown id. */
  async batchDetailsById(ids: readonly string[]) {
    const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const rows = uuids.length
      ? await this.s.db.importBatch.findMany({ where: { id: { in: uuids } }, select: { id: true, userId: true } })
      : [];
    const owner = new Map(rows.map((r) => [r.id, r.userId]));
    return Promise.all(ids.map((id) => (owner.has(id) ? this.details.batch(owner.get(id)!, id) : null)));
  }

  /** My bests in `version` against the nearest earlier version with data (docs/domain/score-lists.md#logs-and-batches). */
  async versionSummary(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const idx = versionIndex(version);
    const have = new Set(
      (await this.s.db.bestScore.groupBy({ by: ['version'], where: { userId } })).map((r) => r.version),
    );
    let compare: GameVersion | null = null;
    for (let i = idx - 1; i >= 0; i--) {
      if (have.has(GAME_VERSIONS[i])) {
        compare = GAME_VERSIONS[i];
        break;
      }
    }
    if (!compare) return { currentVersion: version, compareVersion: null, compareVersionLabel: null, entries: [] };
    return {
      currentVersion: version,
      compareVersion: compare,
      compareVersionLabel: `${compare} ${VERSION_TITLES[compare]}`,
      entries: await this.s.services.scores.history.versionComparison(userId, version, compare, { summaryDiffs: true }),
    };
  }

  /** Deletes one batch of the owner (its plays go with it) and recomputes bests and later totals. */
  async deleteBatch(userId: string, batchId: string) {
    // run again after a deadlock / serialization failure (nothing written): never INTERNAL; and
    // with the catalogue loaded afresh when a definitions import made it stale meanwhile
    const result = await withCurrentCatalogue(this.s.catalogue, (seen) =>
      retryTransaction(() =>
        this.s.db.$transaction(
          async (tx) => {
            await lockPlayer(tx, userId);
            this.s.onPlayerLocked?.({ kind: 'deleteBatch', userId, batchId });
            await lockCurrentDefinitions(tx, seen);
            const batch = await tx.importBatch.findFirst({ where: { id: batchId, userId } });
            if (!batch) throw notFound('Batch not found.');
            const provisional = await tx.$queryRawUnsafe<{ chartId: number }[]>(
              `SELECT DISTINCT s."chartId" FROM "Score" s JOIN "Chart" c ON c."id" = s."chartId"
                WHERE s."batchId" = $1 AND c."provisional"`,
              batchId,
            );
            await tx.importBatch.delete({ where: { id: batchId } });
            await rebuildDerived(tx, this.s.catalogue, userId, batch.version, batch.createdAt);
            // provisional charts no one holds any more go with the batch (docs/imports-provisional.md)
            const dropped = await dropUnheldProvisional(
              tx,
              provisional.map((r) => Number(r.chartId)),
            );
            return { ...batch, dropped };
          },
          { timeout: 60_000 },
        ),
      ),
    );
    if (result.dropped.length) await this.s.caches.changed(CATALOGUE_CACHE);
    this.s.events.emit('scores.batchDeleted', { userId, version: result.version, batchId });
    return { batchId, version: result.version, message: 'Batch deleted successfully.' };
  }
}
