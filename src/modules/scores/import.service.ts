/**
 * Score import: one import = one ImportBatch written in ONE transaction (plays, bests, totals),
 * or nothing at all. Rows are matched to charts by exact title + difficulty (after title
 * corrections) through the in-memory catalogue; unmatched and invalid rows are reported. Only
 * plays that improve the player's best on some field (EX, lamp, misses) are stored; a re-import
 * of the same data writes nothing and says so. Bulk statements only: a fixed number of round
 * trips whatever the row count.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { PlayStyle } from '../../domain/constants';
import { NO_CORRECTIONS, type TitleCorrections } from '../../domain/csv';
import type { Best } from '../../domain/scores';
import { notFound as notFoundError } from '../../errors';
import { requireVersion } from '../../graphql/args';
import { CATALOGUE_CACHE } from '../catalogue/catalogue';
import { learnCharts } from './learn.service';
import { takeNewTitles } from './new-titles.service';
import { bestBpis, computeTotal, lockPlayer, storeTotals, totalSetIds, type DbLike } from './totals.service';
import { retryTransaction } from '../../db/retry';
import { lockCurrentDefinitions, withCurrentCatalogue, type DefinitionsFingerprint } from './current-definitions';
import { inChunks } from '../../db/yield';
import { importDuration, timed, txRetries } from '../../metrics';
import { exportKeys, MAX_IMPORT_ROWS, parseExport, tooManyRows } from './parse-export';
import { parseExportTask } from './parse.task';
import { bestUpserts, improvingPlays, matchRowsSliced } from './import-steps';
import type { ImportDeps, ImportInput, ImportProblem, ImportReport } from './import-types';

// Step 0, parsing an export file, lives in ./parse-export.ts (light enough for the worker pool);
// steps 1–3, pure, in ./import-steps.ts; the types in ./import-types.ts.
export { catalogueTitles, formatMismatch, MAX_IMPORT_ROWS, parseExport, type ImportRow } from './parse-export';
export { bestUpserts, improvingPlays, matchRows, matchRowsSliced, type Matching } from './import-steps';
export type {
  Candidate,
  ImportCatalogue,
  ImportDeps,
  ImportInput,
  ImportProblem,
  ImportReport,
  MatchedRow,
} from './import-types';

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
    // the player still exists, and stays until this import commits (KEY SHARE: an account deletion
    // waits for it, then removes what it wrote); deleted meanwhile → NOT_FOUND, nothing written
    const [player] = await tx.$queryRawUnsafe<{ ok: number }[]>(
      'SELECT 1 AS ok FROM "User" WHERE "id" = $1 FOR KEY SHARE',
      input.userId,
    );
    if (!player) throw notFoundError('User not found: the account was deleted');
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
