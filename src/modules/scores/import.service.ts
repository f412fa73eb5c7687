/**
 * Score import: one import = one ImportBatch written in ONE transaction (plays, bests, totals),
 * or nothing at all. Rows are matched to charts by exact title + difficulty (after title
 * corrections) through the in-memory catalogue; unmatched and invalid rows are reported. Only
 * plays that improve the player's best on some field (EX, lamp, misses) are stored; a re-import
 * of the same data writes nothing and says so. Bulk statements only: a fixed number of round
 * trips whatever the row count.
 */
import { randomUUID } from 'node:crypto';
import type { ClusterCaches } from '../../cluster/caches';
import type { Db } from '../../db/client';
import { Difficulty, PlayStyle } from '../../domain/constants';
import {
  correctTitle,
  jstToUtc,
  NO_CORRECTIONS,
  normalizeWallClock,
  type ParseIssue,
  type TitleCorrections,
} from '../../domain/csv';
import { playDateProblem } from '../../domain/dates';
import { applyPlay, improvements, type Best } from '../../domain/scores';
import type { EventBus } from '../../events';
import type { ImportSource } from '../../generated/prisma/enums';
import { requireVersion } from '../../graphql/args';
import { CATALOGUE_CACHE, type CatalogueChart, type CatalogueSong } from '../catalogue/catalogue';
import { titleKey } from '../../domain/titles';
import type { NewTitleLimits } from '../../domain/new-titles';
import { learnCharts } from './learn.service';
import { takeNewTitles } from './new-titles.service';
import {
  bestBpis,
  computeTotal,
  lockPlayer,
  storeTotals,
  totalSetIds,
  type ChartLookup,
  type DbLike,
  type PlayerLockObserver,
} from './totals.service';
import { retryTransaction } from '../../db/retry';
import {
  assertCurrentDefinitions,
  lockCurrentDefinitions,
  withCurrentCatalogue,
  type DefinitionsFingerprint,
} from './current-definitions';
import { inChunks, sliceClock } from '../../db/yield';
import { importDuration, timed, txRetries } from '../../metrics';
import type { WorkerPool } from '../../workers/pool';
import { exportKeys, MAX_IMPORT_ROWS, parseExport, tooManyRows, type ImportRow } from './parse-export';
import { parseExportTask } from './parse.task';

// Step 0, parsing an export file, lives in ./parse-export.ts (light enough for the worker pool).
export { catalogueTitles, formatMismatch, MAX_IMPORT_ROWS, parseExport, type ImportRow } from './parse-export';

export interface ImportProblem {
  line: number;
  title?: string;
  difficulty?: string;
  column?: string;
  /** the offending value as written */
  value?: string;
  reason: string;
  severity: 'error' | 'warning';
}

export interface ImportReport {
  /** null when nothing was written (already up to date) */
  batchId: string | null;
  upToDate: boolean;
  message: string;
  format: string;
  rowCount: number;
  /** plays stored (improved some field), all charts */
  updatedCount: number;
  /** plays stored on charts with a BPI definition */
  bpiUpdatedCount: number;
  previousTotalBpi: number;
  newTotalBpi: number;
  notFound: { line: number; title: string; playStyle: PlayStyle; difficulty: string }[];
  problems: ImportProblem[];
  /** charts the catalogue learned from this export (not in the BPI definitions; no BPI) */
  learnedCharts: number;
  /** charts without a play in the export (NO PLAY, zero score) */
  skipped: number;
  chartIds: number[];
}

export interface ImportInput {
  userId: string;
  version: string;
  source: ImportSource;
  format?: string;
  rows: ImportRow[];
  /** problems found while parsing (reported with the result) */
  parseIssues?: ParseIssue[];
  skipped?: number;
  corrections?: TitleCorrections;
  now?: Date;
  onProgress?: (done: number, total: number) => void;
  /** Test hook: runs inside the transaction after the plays are inserted (throwing aborts the import). */
  afterPlaysInserted?: () => Promise<void> | void;
}

/** The catalogue as the import sees it: charts by id and by title + difficulty (ChartMatcher), current BPIs. */
export type ImportCatalogue = ChartLookup & {
  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): CatalogueChart | undefined;
  /** Reloads the catalogue (after charts were learned from an export). */
  reload?(): Promise<void>;
  /** Every chart, provisional ones included (absent: charts()). */
  allCharts?(): IterableIterator<CatalogueChart>;
  /** The song with this title's key (absent: none known; learned songs take the key as title). */
  song?(title: string): CatalogueSong | undefined;
  /** Loads it afresh (after a definitions import made it stale: ./current-definitions.ts). */
  load?(): Promise<void>;
};

export interface ImportDeps {
  db: Db;
  catalogue: ImportCatalogue;
  events?: EventBus;
  /** The cluster's caches: learned charts reload the catalogue in every process (absent: this process only). */
  caches?: Pick<ClusterCaches, 'changed'>;
  /** New-title caps (config.newTitles; absent: DEFAULT_NEW_TITLE_LIMITS). */
  config?: { newTitles?: NewTitleLimits };
  /** Test seam: told when the import's transaction took the player's lock (PlayerLockObserver). */
  onPlayerLocked?: PlayerLockObserver;
  /** The worker pool export files are parsed in (absent: parsed on the calling thread). */
  pool?: Pick<WorkerPool, 'run'>;
}

/** A row matched to its chart, ready to compare with the player's best. */
export interface MatchedRow {
  row: ImportRow;
  chart: CatalogueChart;
  playedAt: Date;
  /** The play's BPI with the definition in force now (stored on the play: Score.bpi). */
  bpi: number | null;
  /** The chart is learned from the export by this import (`chart.id` is temporary until it is created). */
  learned?: boolean;
  /** Title key of a song not in the public catalogue (a new title for the caps: src/domain/new-titles.ts). */
  newTitle?: string;
}

/** A matched row that improves the running best: it becomes a play (`tempId` until inserted). */
export interface Candidate extends MatchedRow {
  tempId: number;
}

/**
 * Step 1 (pure): rows matched to charts by exact title + difficulty (then the corrected title),
 * checked (EX within the chart's maximum, misses), their play time read (JST wall clock; the
 * import time when absent or unreadable, with a warning). Zero scores are charts without a play.
 */
export function matchRows(
  catalogue: ImportCatalogue,
  rows: readonly ImportRow[],
  corrections: TitleCorrections,
  now: Date,
): Matching {
  const steps = matchSteps(catalogue, rows, corrections, now);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** What matchRows answers. */
export interface Matching {
  matched: MatchedRow[];
  notFound: ImportReport['notFound'];
  problems: ImportProblem[];
  skipped: number;
  learned: CatalogueChart[];
  learnedSong: Map<string, { genre: string | null; artist: string | null }>;
}

/**
 * matchRows in slices, the event loop let through between them (~10 ms each): 10,000 rows of
 * titles the catalogue does not hold are ~100 ms of CPU. A definitions import committed meanwhile
 * (the catalogue reloaded with other definitions than `seen`, the writer's fingerprint) ends the
 * write with StaleCatalogueError, which runs it again (withCurrentCatalogue).
 */
export async function matchRowsSliced(
  catalogue: ImportCatalogue,
  rows: readonly ImportRow[],
  corrections: TitleCorrections,
  now: Date,
  seen: DefinitionsFingerprint | null,
): Promise<Matching> {
  const steps = matchSteps(catalogue, rows, corrections, now);
  const clock = sliceClock();
  for (;;) {
    const r = steps.next();
    if (r.done) {
      assertCurrentDefinitions(catalogue, seen);
      return r.value;
    }
    await clock.pause();
  }
}

/** matchRows' loop, pausing (`yield`) every MATCH_SLICE rows. */
function* matchSteps(
  catalogue: ImportCatalogue,
  rows: readonly ImportRow[],
  corrections: TitleCorrections,
  now: Date,
): Generator<void, Matching> {
  const problems: ImportProblem[] = [];
  const notFound: ImportReport['notFound'] = [];
  let skipped = 0;
  const times = new Map<string, Date | null>(); // one export date usually serves many rows
  /** genre and artist of songs learned from the export (official CSV) */
  const learnedSong = new Map<string, { genre: string | null; artist: string | null }>();
  const matched: MatchedRow[] = [];
  /** charts learned from the export, by corrected title + style + difficulty (negative ids until created) */
  const learned = new Map<string, CatalogueChart>();
  let n = 0;
  for (const row of rows) {
    if (++n % MATCH_SLICE === 0) yield;
    const style = row.playStyle ?? PlayStyle.SP;
    const corrected = correctTitle(row.title, corrections);
    let chart = catalogue.find(row.title, style, row.difficulty) ?? catalogue.find(corrected, style, row.difficulty);
    let isLearned = false;
    if (
      !chart &&
      row.level != null &&
      Number.isInteger(row.level) &&
      row.level >= 1 &&
      row.level <= 12 &&
      corrected.trim() !== ''
    ) {
      // The export names the chart's level: a provisional chart is learned (no BPI definition), on
      // the catalogue's song of the same title key if there is one, else on a song titled by the key.
      const key = `${titleKey(corrected)}\u0000${style}\u0000${row.difficulty}`;
      chart = learned.get(key);
      if (!chart) {
        chart = {
          id: -(learned.size + 1),
          songId: 0,
          title: catalogue.song?.(corrected)?.title ?? titleKey(corrected),
          provisional: true,
          playStyle: style,
          difficulty: row.difficulty,
          level: row.level,
          notes: row.notes ?? 0,
          bpm: '',
          releasedVersion: null,
          removedInVersion: null,
          radarCategory: null,
          definition: null,
        };
        learned.set(key, chart);
      }
      isLearned = true;
    }
    if (!chart) {
      notFound.push({ line: row.line, title: row.title, playStyle: style, difficulty: row.difficulty });
      continue;
    }
    const bad = (reason: string, column?: string, value?: unknown) =>
      problems.push({
        line: row.line,
        title: row.title,
        difficulty: row.difficulty,
        column,
        ...(value !== undefined ? { value: String(value) } : {}),
        reason,
        severity: 'error',
      });
    if (row.exScore === 0) {
      skipped++; // a chart without a play (the reference skips zero scores too)
      continue;
    }
    if (!Number.isInteger(row.exScore) || row.exScore < 0) {
      bad('exScore must be a non-negative integer', 'exScore', row.exScore);
      continue;
    }
    if (chart.notes > 0 && row.exScore > chart.notes * 2) {
      bad(`exScore ${row.exScore} exceeds the chart's maximum ${chart.notes * 2}`, 'exScore', row.exScore);
      continue;
    }
    if (row.missCount !== null && (!Number.isInteger(row.missCount) || row.missCount < 0)) {
      bad('missCount must be a non-negative integer', 'missCount', row.missCount);
      continue;
    }
    let playedAt = now;
    if (row.lastPlayed) {
      let at = times.get(row.lastPlayed);
      if (at === undefined) {
        const norm = normalizeWallClock(row.lastPlayed);
        at = norm ? jstToUtc(norm) : null;
        times.set(row.lastPlayed, at);
      }
      if (at) {
        const problem = playDateProblem(at, Math.max(now.getTime(), Date.now()));
        if (problem) {
          bad(problem, 'lastPlayed', row.lastPlayed);
          continue;
        }
        playedAt = at;
      } else
        problems.push({
          line: row.line,
          title: row.title,
          difficulty: row.difficulty,
          column: 'lastPlayed',
          value: row.lastPlayed,
          reason: 'not a date-time; the import time is used',
          severity: 'warning',
        });
    }
    // a song not in the public catalogue: a new title for the caps (docs/domain/imports.md#new-titles)
    const newTitle = chart.provisional && !catalogue.song?.(chart.title)?.public ? titleKey(chart.title) : undefined;
    if (isLearned) {
      if (row.genre && !learnedSong.has(chart.title))
        learnedSong.set(chart.title, { genre: row.genre, artist: row.artist ?? null });
      matched.push({ row, chart, playedAt, bpi: null, learned: true, newTitle });
    } else matched.push({ row, chart, playedAt, bpi: catalogue.currentBpi(chart.id, row.exScore), newTitle });
  }
  return { matched, notFound, problems, skipped, learned: [...learned.values()], learnedSong };
}

/** Rows matched between two pauses of matchRowsSliced (its clock lets the loop through after ~10 ms). */
const MATCH_SLICE = 250;

/**
 * Step 2 (pure): the matched rows that improve the player's best on some field (EX, lamp,
 * misses), in file order — two rows of one chart are each compared with the running best.
 * Updates `bests` in place (the new per-field bests, play ids negative until inserted).
 */
export function improvingPlays(matched: readonly MatchedRow[], bests: Map<number, Best>): Candidate[] {
  const candidates: Candidate[] = [];
  for (const m of matched) {
    const best = bests.get(m.chart.id);
    const play = { exScore: m.row.exScore, clearLamp: m.row.clearLamp, missCount: m.row.missCount };
    if (!improvements(play, best).any) continue;
    const tempId = -(candidates.length + 1);
    candidates.push({ ...m, tempId });
    bests.set(m.chart.id, applyPlay(best, { ...play, id: tempId, playedAt: m.playedAt }));
  }
  return candidates;
}

/**
 * Step 3 (pure): the BestScore rows to upsert for the changed charts, the temporary play ids
 * replaced by the inserted ones (`insertedIds`: ids of the candidates' plays, ascending, in
 * candidate order).
 */
export function bestUpserts(
  bests: ReadonlyMap<number, Best>,
  changedCharts: readonly number[],
  insertedIds: readonly number[],
) {
  const realId = (id: number | null) => (id !== null && id < 0 ? insertedIds[-id - 1] : id);
  return changedCharts.map((chartId) => {
    const b = bests.get(chartId)!;
    return {
      chartId,
      exScore: b.exScore,
      exScoreId: realId(b.exScoreId),
      clearLamp: b.clearLamp,
      clearLampId: realId(b.clearLampId),
      missCount: b.missCount,
      missCountId: realId(b.missCountId),
      playedAt: b.playedAt.toISOString(),
    };
  });
}

/** The player's bests, stored total and whether a batch exists in `version` (read in the import's transaction). */
async function playerState(tx: DbLike, userId: string, version: string) {
  const bestRows = await tx.bestScore.findMany({ where: { userId, version }, orderBy: { chartId: 'asc' } });
  const status = await tx.playerVersionStatus.findUnique({
    where: { userId_version: { userId, version } },
    select: { totalBpi: true },
  });
  const earlier = await tx.importBatch.findFirst({ where: { userId, version }, select: { id: true } });
  return { bestRows, status, earlier };
}

/**
 * The import's write transaction, run again from the start when PostgreSQL aborts it as a
 * deadlock victim or a serialization failure (40P01 / 40001: nothing was written) — the client
 * never sees those. Writes follow one order in every import (learned songs and charts by key,
 * bests by chart id, then the player's total) so deadlocks stay rare to begin with.
 */
function importTransaction<T>(db: Db, body: (tx: DbLike) => Promise<T>): Promise<T> {
  return retryTransaction(() => db.$transaction(body, { timeout: 120_000, maxWait: 30_000 }), {
    onRetry: () => txRetries.inc({ kind: 'import' }),
  });
}

export function importScores(deps: ImportDeps, input: ImportInput): Promise<ImportReport> {
  // run again from the matching on when a definitions import made the catalogue stale meanwhile
  return timed(importDuration, { kind: 'scores' }, () =>
    withCurrentCatalogue(deps.catalogue, (seen) => importScoresUntimed(deps, input, seen)),
  );
}

async function importScoresUntimed(
  deps: ImportDeps,
  input: ImportInput,
  seen: DefinitionsFingerprint | null,
): Promise<ImportReport> {
  const { db, catalogue } = deps;
  requireVersion(input.version);
  if (input.rows.length > MAX_IMPORT_ROWS) throw tooManyRows(input.rows.length);
  const now = input.now ?? new Date();
  const progress = input.onProgress ?? (() => {});
  const total = input.rows.length;
  // matched in slices; `seen` is checked again at the end (a definitions reload meanwhile: run again)
  const step1 = await matchRowsSliced(catalogue, input.rows, input.corrections ?? NO_CORRECTIONS, now, seen);
  const { notFound } = step1;
  const parseProblems: ImportProblem[] = [...(input.parseIssues ?? []).map((i) => ({ ...i })), ...step1.problems];
  let problems = parseProblems;
  const skipped = (input.skipped ?? 0) + step1.skipped;
  progress(Math.floor(total / 4), total);

  const report = (over: Partial<ImportReport>): ImportReport => ({
    batchId: null,
    upToDate: true,
    message: 'Already up to date: no score improved',
    format: input.format ?? input.source,
    rowCount: input.rows.length,
    updatedCount: 0,
    bpiUpdatedCount: 0,
    previousTotalBpi: -15,
    newTotalBpi: -15,
    notFound,
    problems,
    skipped,
    learnedCharts: 0,
    chartIds: [],
    ...over,
  });
  let createdCharts: number[] = [];
  /** the player's best EX before → after on each changed chart (for the followers' OVERTAKEN notifications) */
  let exSteps: { chartId: number; before: number; after: number }[] = [];

  // the batch this import writes if anything improves (named before the transaction: the lock's observer is told it)
  const batchId = randomUUID();
  const result = await importTransaction(db, async (tx) => {
    // 2. the player's current bests and total in this version (one import at a time per player:
    // lockPlayer; the reads one after the other — one connection serves the whole transaction)
    await lockPlayer(tx, input.userId);
    deps.onPlayerLocked?.({ kind: 'import', userId: input.userId, batchId });
    await lockCurrentDefinitions(tx, seen);
    const { bestRows, status, earlier } = await playerState(tx, input.userId, input.version);
    const previousTotalBpi = status?.totalBpi ?? -15;
    const bests = new Map<number, Best>(bestRows.map((b) => [b.chartId, { ...b }]));
    const exBefore = new Map(bestRows.map((b) => [b.chartId, b.exScore]));

    // 2b. new titles capped (per import, per player and day: the player's lock makes the count
    // exact); rows past the caps are problems. Then the charts learned from the export are created
    // now (same transaction, provisional); placeholders get their ids.
    const capped = await takeNewTitles(tx, input.userId, step1, deps.config?.newTitles, now);
    problems = [...parseProblems, ...capped.problems];
    const matched = capped.matched;
    createdCharts = await learnCharts(tx, capped.learned, step1.learnedSong);

    // 3. improvements, in file order
    const candidates = improvingPlays(matched, bests);
    if (candidates.length === 0) {
      const message =
        matched.length === 0
          ? 'Nothing imported: no row matched a chart of the catalogue'
          : 'Already up to date: no score improved';
      return report({ previousTotalBpi, newTotalBpi: previousTotalBpi, message });
    }

    // ascending chart ids: every import writes shared rows (rank blocks) in the same order
    const changedCharts = [...new Set(candidates.map((c) => c.chart.id))].sort((a, b) => a - b);
    const setIds = totalSetIds(catalogue, input.version);
    const totals = computeTotal(catalogue, input.version, bestBpis(catalogue, bests), setIds);
    const bpiUpdatedCount = candidates.filter((c) => c.chart.definition).length;

    // 4. writes: batch, plays, bests (each in chunks sized by their time), total
    await tx.importBatch.create({
      data: {
        id: batchId,
        userId: input.userId,
        version: input.version,
        source: input.source,
        rowCount: input.rows.length,
        updatedCount: candidates.length,
        bpiUpdatedCount,
        // null: the player's first batch in the version (no previous total: its difference is 0)
        previousTotalBpi: earlier ? previousTotalBpi : null,
        totalBpi: totals.totalBpi,
        createdAt: now,
      },
    });
    progress(Math.floor(total / 2), total);
    const plays = candidates.map((c, i) => ({
      ord: i,
      chartId: c.chart.id,
      exScore: c.row.exScore,
      clearLamp: c.row.clearLamp,
      missCount: c.row.missCount,
      bpi: c.bpi,
      definitionId: c.chart.definition?.id ?? null,
      playedAt: c.playedAt.toISOString(),
      pgreat: c.row.judgements?.pgreat ?? null,
      great: c.row.judgements?.great ?? null,
    }));
    // in chunks sized by their time (PGlite runs each statement on the main thread: 1,000 plays in
    // one statement held the process up to 1 s on a busy machine), in file order, same transaction
    const inserted = (
      await inChunks(plays, (chunk) =>
        tx.$queryRawUnsafe<{ id: number }[]>(
          `INSERT INTO "Score" ("userId", "chartId", "version", "batchId", "exScore", "clearLamp", "missCount", "bpi", "definitionId", "playedAt", "createdAt", "pgreat", "great")
             SELECT $2, x."chartId", $3, $4, x."exScore", x."clearLamp"::"ClearLamp", x."missCount", x."bpi", x."definitionId", x."playedAt"::timestamp(3), $5::timestamp(3), x."pgreat", x."great"
               FROM jsonb_to_recordset($1::jsonb) AS x("ord" int, "chartId" int, "exScore" int, "clearLamp" text, "missCount" int, "bpi" double precision, "definitionId" int, "playedAt" text, "pgreat" int, "great" int)
              ORDER BY x."ord"
             RETURNING "id"`,
          JSON.stringify(chunk),
          input.userId,
          input.version,
          batchId,
          now.toISOString(),
        ),
      )
    ).flat();
    if (inserted.length !== candidates.length)
      throw new Error(`inserted ${inserted.length} plays, expected ${candidates.length}`);
    const ids = inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
    await input.afterPlaysInserted?.();
    progress(Math.floor((total * 3) / 4), total);

    const upserts = bestUpserts(bests, changedCharts, ids);
    exSteps = upserts.map((u) => ({ chartId: u.chartId, before: exBefore.get(u.chartId) ?? -1, after: u.exScore }));
    // chunked as the plays (ascending chart ids: every import still takes rank blocks in one order;
    // the rank triggers apply each chunk's rows, the same in sum)
    await inChunks(upserts, (chunk) =>
      tx.$executeRawUnsafe(
        `INSERT INTO "BestScore" ("userId", "version", "chartId", "exScore", "exScoreId", "clearLamp", "clearLampId", "missCount", "missCountId", "playedAt", "updatedAt")
           SELECT $2, $3, x."chartId", x."exScore", x."exScoreId", x."clearLamp"::"ClearLamp", x."clearLampId", x."missCount", x."missCountId", x."playedAt"::timestamp(3), $4::timestamp(3)
             FROM jsonb_to_recordset($1::jsonb) AS x("chartId" int, "exScore" int, "exScoreId" int, "clearLamp" text, "clearLampId" int, "missCount" int, "missCountId" int, "playedAt" text)
           ON CONFLICT ("userId", "version", "chartId") DO UPDATE SET
             "exScore" = EXCLUDED."exScore", "exScoreId" = EXCLUDED."exScoreId",
             "clearLamp" = EXCLUDED."clearLamp", "clearLampId" = EXCLUDED."clearLampId",
             "missCount" = EXCLUDED."missCount", "missCountId" = EXCLUDED."missCountId",
             "playedAt" = EXCLUDED."playedAt", "updatedAt" = EXCLUDED."updatedAt"`,
        JSON.stringify(chunk),
        input.userId,
        input.version,
        now.toISOString(),
      ),
    );
    // no BPI chart touched: no total is written, as the reference (docs/domain/imports.md#the-import)
    if (bpiUpdatedCount > 0) await storeTotals(tx, input.version, new Map([[input.userId, totals]]));
    return report({
      batchId,
      upToDate: false,
      message: `Imported ${candidates.length} improved plays`,
      updatedCount: candidates.length,
      bpiUpdatedCount,
      previousTotalBpi,
      newTotalBpi: totals.totalBpi,
      learnedCharts: createdCharts.length,
      chartIds: changedCharts,
    });
  });
  progress(total, total);
  if (step1.learned.length) {
    // The catalogue holds the learned charts from now on, in every process of the cluster (the
    // catalogue cache's announcement; a process that missed it still reloads when it meets an
    // unknown chart id: Catalogue.ensureCharts).
    if (deps.caches && createdCharts.length) await deps.caches.changed(CATALOGUE_CACHE);
    else await deps.catalogue.reload?.();
    if (createdCharts.length) deps.events?.emit('catalogue.chartsAdded', { chartIds: createdCharts });
  }
  if (result.batchId) {
    deps.events?.emit('scores.imported', {
      userId: input.userId,
      version: input.version,
      batchId: result.batchId,
      chartIds: result.chartIds,
      exSteps,
    });
  }
  return result;
}

/**
 * The export-file use case (the importScoresCsv mutation and `cli scores import`): the version
 * checked, the file parsed and checked against it (parseExport; in the worker pool when there is
 * one: a file near the body limit is 0.3–5 s of CPU), then imported as one batch.
 */
export async function importScoreExport(
  deps: ImportDeps,
  args: { userId: string; version: string; csv: string; playStyle?: PlayStyle | null },
  opts: { corrections: TitleCorrections; onProgress?: (done: number, total: number) => void },
): Promise<ImportReport> {
  requireVersion(args.version);
  const officialPlayStyle = args.playStyle ?? PlayStyle.SP;
  const parsed = deps.pool
    ? await deps.pool.run(
        parseExportTask,
        {
          text: args.csv,
          version: args.version,
          keys: exportKeys(deps.catalogue),
          corrections: opts.corrections,
          officialPlayStyle,
        },
        { budgetMs: PARSE_BUDGET_MS },
      )
    : parseExport(args.csv, args.version, deps.catalogue, opts.corrections, officialPlayStyle);
  return importScores(deps, {
    userId: args.userId,
    version: args.version,
    ...parsed,
    corrections: opts.corrections,
    onProgress: opts.onProgress,
  });
}

/** A parse has no partial answer: its budget is generous (a file at the body limit parses in well under a second). */
const PARSE_BUDGET_MS = 30_000;
