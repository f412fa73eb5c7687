/**
 * Data migration from the older app's export (docs/domain/imports.md#migration-from-the-older-app), transactional and
 * idempotent: the previous migration's batches (source TRANSFER) are replaced, other imports are
 * kept, then bests and totals are rebuilt from the plays. Differences from the reference, on
 * purpose: versions are kept apart (not merged per day), and the current lamp/miss count of the
 * export is given only to the latest history entry of a chart (not stamped on every old entry).
 */
import { randomUUID } from 'node:crypto';
import { ClearLamp, Difficulty, PlayStyle } from '../../domain/constants';
import { jstToUtc, normalizeWallClock } from '../../domain/csv';
import { yieldToEventLoop } from '../../db/yield';
import { playDateProblem } from '../../domain/dates';
import { improvements, applyPlay, type Best } from '../../domain/scores';
import { badInput } from '../../errors';
import { versionIssue } from '../../graphql/args';
import { rebuildDerived } from './rebuild.service';
import { lockPlayer } from './totals.service';
import type { ImportDeps } from './import.service';

const LEGACY_LAMPS = [
  ClearLamp.FAILED,
  ClearLamp.ASSIST_CLEAR,
  ClearLamp.EASY_CLEAR,
  ClearLamp.CLEAR,
  ClearLamp.HARD_CLEAR,
  ClearLamp.EX_HARD_CLEAR,
  ClearLamp.FULLCOMBO_CLEAR,
];

interface HistoryItem {
  title: string;
  difficulty: string;
  exScore: number;
  updatedAt: string;
}

function legacyLamp(v: unknown): ClearLamp | null {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < LEGACY_LAMPS.length) return LEGACY_LAMPS[v];
  if (typeof v === 'string' && /^\d$/.test(v)) return legacyLamp(Number(v));
  return null;
}

function toDate(s: string): Date | null {
  const wall = normalizeWallClock(s);
  if (wall) return jstToUtc(wall);
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t);
}

/** Largest export accepted by default (characters; MIGRATION_MAX_BYTES). */
export const MIGRATION_MAX_CHARS = 2 * 1024 * 1024;
/** Plays per INSERT statement of a migration. */
const MIGRATION_CHUNK = 500;
/** History entries per migration (all versions). */
export const MIGRATION_MAX_ENTRIES = 100_000;

export async function migrateLegacyScores(
  deps: ImportDeps,
  userId: string,
  data: string,
  maxChars = MIGRATION_MAX_CHARS,
) {
  if (data.length > maxChars) {
    const message = `data is ${data.length} characters; the maximum is ${maxChars} (MIGRATION_MAX_BYTES)`;
    throw badInput(message, [{ code: 'too_big', path: ['data'], message }]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(data);
  } catch {
    throw badInput('data is not JSON', [{ code: 'invalid_json', path: ['data'], message: 'data is not JSON' }]);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw badInput('data must be an object keyed by game version');
  await yieldToEventLoop();
  const { db, catalogue } = deps;
  const plan: {
    version: string;
    day: string;
    createdAt: Date;
    plays: {
      chartId: number;
      exScore: number;
      clearLamp: ClearLamp | null;
      missCount: number | null;
      playedAt: Date;
      bpi: number | null;
      definitionId: number | null;
    }[];
  }[] = [];
  let notFound = 0;
  let entries = 0;
  const now = Date.now();
  const versions: string[] = [];
  for (const [version, body] of Object.entries(doc as Record<string, unknown>)) {
    const issue = versionIssue(version, 'data');
    if (issue)
      throw badInput(`Unknown game version ${JSON.stringify(version)}`, [{ ...issue, path: ['data', version] }]);
    const b = body as {
      scoresHistory?: unknown;
      scores?: Record<string, { title?: string; difficulty?: string; clearState?: unknown; missCount?: unknown }>;
    };
    if (!Array.isArray(b?.scoresHistory) || b.scoresHistory.length === 0) continue;
    entries += b.scoresHistory.length;
    if (entries > MIGRATION_MAX_ENTRIES) {
      throw badInput(`More than ${MIGRATION_MAX_ENTRIES} history entries`, [
        { code: 'too_big', path: ['data'], message: `More than ${MIGRATION_MAX_ENTRIES} history entries` },
      ]);
    }
    versions.push(version);
    const meta = new Map<string, { lamp: ClearLamp | null; miss: number | null }>();
    for (const m of Object.values(b.scores ?? {})) {
      if (!m?.title || !m.difficulty) continue;
      const miss = Number(m.missCount);
      meta.set(`${m.title}\u0000${m.difficulty.toUpperCase()}`, {
        lamp: legacyLamp(m.clearState),
        miss: Number.isInteger(miss) && miss >= 0 ? miss : null,
      });
    }
    // latest entry per chart (gets the export's current lamp / miss count)
    const items = (b.scoresHistory as HistoryItem[])
      .map((h) => ({ h, at: typeof h?.updatedAt === 'string' ? toDate(h.updatedAt) : null }))
      .filter(
        (x): x is { h: HistoryItem; at: Date } =>
          x.at !== null &&
          typeof x.h.title === 'string' &&
          typeof x.h.difficulty === 'string' &&
          Number.isInteger(x.h.exScore) &&
          x.h.exScore > 0,
      )
      .sort((a, z) => a.at.getTime() - z.at.getTime());
    await yieldToEventLoop();
    // Dates outside the sane range are refused (never stored): the whole migration or nothing.
    for (const x of items) {
      const problem = playDateProblem(x.at, now);
      if (problem) {
        const i = (b.scoresHistory as HistoryItem[]).indexOf(x.h);
        throw badInput(`data.${version}.scoresHistory[${i}]: ${problem}`, [
          { code: 'out_of_range', path: ['data', version, 'scoresHistory', i, 'updatedAt'], message: problem },
        ]);
      }
    }
    const lastIdx = new Map<string, number>();
    items.forEach((x, i) => lastIdx.set(`${x.h.title}\u0000${x.h.difficulty.toUpperCase()}`, i));
    const days = new Map<string, (typeof plan)[number]>();
    const running = new Map<number, Best>();
    for (let i = 0; i < items.length; i++) {
      if (i % 1000 === 999) await yieldToEventLoop(); // a 2 MiB export is ~20,000 entries of work
      const x = items[i];
      const key = `${x.h.title}\u0000${x.h.difficulty.toUpperCase()}`;
      const chart = catalogue.find(x.h.title, PlayStyle.SP, x.h.difficulty.toUpperCase() as Difficulty);
      if (!chart || x.h.exScore > chart.notes * 2) {
        notFound++;
        continue;
      }
      const m = lastIdx.get(key) === i ? meta.get(key) : undefined;
      const play = { exScore: x.h.exScore, clearLamp: m?.lamp ?? null, missCount: m?.miss ?? null };
      const best = running.get(chart.id);
      if (!improvements(play, best).any) continue;
      running.set(chart.id, applyPlay(best, { ...play, id: i, playedAt: x.at }));
      const day = new Date(x.at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
      let entry = days.get(day);
      if (!entry) {
        entry = { version, day, createdAt: new Date(Date.parse(`${day}T23:59:59.000Z`) - 9 * 3600_000), plays: [] };
        days.set(day, entry);
      }
      entry.plays.push({
        chartId: chart.id,
        ...play,
        playedAt: x.at,
        bpi: catalogue.currentBpi(chart.id, x.h.exScore),
        definitionId: chart.definition?.id ?? null,
      });
    }
    plan.push(...days.values());
  }
  if (versions.length === 0) throw badInput('No importable data found.');
  let total = 0;
  await db.$transaction(
    async (tx) => {
      await lockPlayer(tx, userId);
      const old = await tx.importBatch.findMany({ where: { userId, source: 'TRANSFER' }, select: { version: true } });
      await tx.importBatch.deleteMany({ where: { userId, source: 'TRANSFER' } });
      // Bulk statements only (one per 1,000 batches, one per 5,000 plays): the transaction holds
      // the connection (PGlite's only one) for as short a time as possible.
      const batches = plan.map((p) => ({ ...p, id: randomUUID() }));
      for (let i = 0; i < batches.length; i += 1000) {
        await tx.importBatch.createMany({
          data: batches.slice(i, i + 1000).map((p) => ({
            id: p.id,
            userId,
            version: p.version,
            source: 'TRANSFER' as const,
            rowCount: p.plays.length,
            updatedCount: p.plays.length,
            bpiUpdatedCount: p.plays.filter((x) => x.bpi !== null).length,
            createdAt: p.createdAt,
          })),
        });
      }
      // Plays as one JSON parameter per chunk (jsonb_to_recordset), as the score import does:
      // Prisma's createMany binds every value separately, which PGlite takes seconds to plan.
      const rows = batches.flatMap((p) =>
        p.plays.map((x) => ({
          ...x,
          version: p.version,
          batchId: p.id,
          playedAt: x.playedAt.toISOString(),
          createdAt: p.createdAt.toISOString(),
        })),
      );
      // Chunks of MIGRATION_CHUNK plays with the event loop let through between them (PGlite runs
      // each statement on the main thread: one statement of 20,000 rows held the process seconds).
      for (let i = 0; i < rows.length; i += MIGRATION_CHUNK) {
        await yieldToEventLoop();
        await tx.$executeRawUnsafe(
          `INSERT INTO "Score" ("userId", "chartId", "version", "batchId", "exScore", "clearLamp", "missCount", "bpi", "definitionId", "playedAt", "createdAt")
           SELECT $2, x."chartId", x."version", x."batchId", x."exScore", x."clearLamp"::"ClearLamp", x."missCount", x."bpi", x."definitionId", x."playedAt"::timestamp(3), x."createdAt"::timestamp(3)
             FROM jsonb_to_recordset($1::jsonb) AS x("chartId" int, "version" text, "batchId" text, "exScore" int, "clearLamp" text, "missCount" int, "bpi" double precision, "definitionId" int, "playedAt" text, "createdAt" text)`,
          JSON.stringify(rows.slice(i, i + MIGRATION_CHUNK)),
          userId,
        );
      }
      total = rows.length;
      for (const v of new Set([...versions, ...old.map((o) => o.version)])) {
        await yieldToEventLoop();
        await rebuildDerived(tx, catalogue, userId, v);
      }
    },
    // as the import's transaction: a busy pool makes it wait for a connection, not fail at 2 s
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { importedVersions: versions, totalProcessed: total, batchCount: plan.length, notFound };
}
