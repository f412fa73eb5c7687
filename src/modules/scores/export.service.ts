/**
 * Score export (docs/portability.md): a player's bests (or every play) of one version and play
 * style, read in keyset pages and written as Tachi BATCH-MANUAL JSON or the official CSV layout,
 * chunk by chunk — the caller streams the chunks, so a long history is never one string.
 */
import type { Db } from '../../db/client';
import { Difficulty, PlayStyle, VERSION_TITLES, type GameVersion } from '../../domain/constants';
import {
  batchManualHead,
  batchManualScore,
  BATCH_MANUAL_TAIL,
  OFFICIAL_HEADER,
  officialLine,
  type BatchManualSource,
  type OfficialCell,
} from '../../domain/csv';
import type { ChartLookup } from './totals.service';

export interface ExportDeps {
  db: Db;
  catalogue: Pick<ChartLookup, 'chart' | 'currentBpi'>;
}

export interface ExportQuery {
  userId: string;
  version: string;
  playStyle: PlayStyle;
}

/** One best or play with its chart, as the writers read it. */
export interface ExportRow extends BatchManualSource {
  chartId: number;
  songId: number;
  level: number;
  /** 0 = unknown */
  notes: number;
}

const PAGE = 1000;

/**
 * The player's bests of the version and play style, by chart id, in pages: each best with its
 * best EX (and that play's judgements), best lamp, fewest misses, latest play time and the BPI of
 * its EX under the current definition.
 */
export async function* bestPages(deps: ExportDeps, q: ExportQuery, pageSize = PAGE): AsyncGenerator<ExportRow[]> {
  let after = 0;
  for (;;) {
    const page = await deps.db.bestScore.findMany({
      where: {
        userId: q.userId,
        version: q.version,
        chartId: { gt: after },
        chart: { is: { playStyle: q.playStyle } },
      },
      orderBy: { chartId: 'asc' },
      take: pageSize,
    });
    if (page.length === 0) return;
    after = page[page.length - 1].chartId;
    const plays = await deps.db.score.findMany({
      where: { id: { in: page.map((b) => b.exScoreId) } },
      select: { id: true, pgreat: true, great: true },
    });
    const judgements = new Map(plays.map((p) => [p.id, p]));
    const rows: ExportRow[] = [];
    for (const b of page) {
      const chart = deps.catalogue.chart(b.chartId);
      if (!chart) continue;
      const j = judgements.get(b.exScoreId);
      rows.push({
        chartId: b.chartId,
        songId: chart.songId,
        title: chart.title,
        difficulty: chart.difficulty,
        level: chart.level,
        notes: chart.notes,
        exScore: b.exScore,
        clearLamp: b.clearLamp,
        missCount: b.missCount,
        playedAt: b.playedAt,
        pgreat: j?.pgreat ?? null,
        great: j?.great ?? null,
        bpi: deps.catalogue.currentBpi(b.chartId, b.exScore),
      });
    }
    yield rows;
    if (page.length < pageSize) return;
  }
}

/** Every play of the version and play style, in import order (by id), in pages; each with the BPI stored on it. */
export async function* playPages(deps: ExportDeps, q: ExportQuery, pageSize = PAGE): AsyncGenerator<ExportRow[]> {
  let after = 0;
  for (;;) {
    const page = await deps.db.score.findMany({
      where: { userId: q.userId, version: q.version, id: { gt: after }, chart: { is: { playStyle: q.playStyle } } },
      orderBy: { id: 'asc' },
      take: pageSize,
    });
    if (page.length === 0) return;
    after = page[page.length - 1].id;
    const rows: ExportRow[] = [];
    for (const p of page) {
      const chart = deps.catalogue.chart(p.chartId);
      if (!chart) continue;
      rows.push({
        chartId: p.chartId,
        songId: chart.songId,
        title: chart.title,
        difficulty: chart.difficulty,
        level: chart.level,
        notes: chart.notes,
        exScore: p.exScore,
        clearLamp: p.clearLamp,
        missCount: p.missCount,
        playedAt: p.playedAt,
        pgreat: p.pgreat,
        great: p.great,
        bpi: p.bpi,
      });
    }
    yield rows;
    if (page.length < pageSize) return;
  }
}

/** BATCH-MANUAL JSON, chunk by chunk (one chunk per page). */
export async function* batchManualChunks(
  pages: AsyncIterable<ExportRow[]>,
  q: ExportQuery,
  withBpi: boolean,
): AsyncGenerator<string> {
  yield batchManualHead(q.playStyle, q.version);
  let first = true;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    const body = rows.map((r) => JSON.stringify(batchManualScore(r, withBpi))).join(',\n');
    yield (first ? '\n' : ',\n') + body;
    first = false;
  }
  yield '\n' + BATCH_MANUAL_TAIL;
}

/**
 * The official CSV of the player's bests (one line per song; BOM and CRLF as the game site writes
 * it). A version's bests are bounded by the catalogue, so they are grouped in memory, then written
 * a page of songs at a time.
 */
export async function* officialCsvChunks(deps: ExportDeps, q: ExportQuery): AsyncGenerator<string> {
  yield '\ufeff' + OFFICIAL_HEADER + '\r\n';
  const songs = new Map<number, { title: string; charts: Map<Difficulty, OfficialCell> }>();
  for await (const rows of bestPages(deps, q)) {
    for (const r of rows) {
      let s = songs.get(r.songId);
      if (!s) songs.set(r.songId, (s = { title: r.title, charts: new Map() }));
      s.charts.set(r.difficulty, r);
    }
  }
  const ids = [...songs.keys()].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += PAGE) {
    const chunk = ids.slice(i, i + PAGE);
    const facts = await deps.db.song.findMany({
      where: { id: { in: chunk } },
      select: { id: true, genre: true, artist: true },
    });
    const byId = new Map(facts.map((f) => [f.id, f]));
    const lines = chunk.map((id) => {
      const s = songs.get(id)!;
      const f = byId.get(id);
      const version =
        q.version in VERSION_TITLES ? `${q.version} ${VERSION_TITLES[q.version as GameVersion]}` : q.version;
      return officialLine({ title: s.title, version, genre: f?.genre, artist: f?.artist, charts: s.charts }) + '\r\n';
    });
    yield lines.join('');
  }
}
