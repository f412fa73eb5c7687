/**
 * Import of precomputed arrangement scores (format: src/domain/optimizer/arrangement.ts and docs/guide/imports.md
 * "Arrangement scores"), shared by the admin CLI (`tickets import-scores`) and the admin mutation
 * `importArrangementScores`. Validated whole before anything is written (any problem: BAD_USER_INPUT
 * listing the problems, nothing written); then one transaction. Re-runnable: the same file twice
 * changes nothing the second time. Nothing is cached in memory: every process reads the table.
 */
import type { Db } from '../../db/client';
import {
  diffChart,
  parseArrangementDocument,
  type ArrangementIssue,
  type StoredArrangement,
} from '../../domain/optimizer/arrangement';
import { badInput } from '../../errors';
import { ChartMatcher } from '../catalogue/catalogue';

export interface ArrangementImportReport {
  charts: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
}

const CHUNK = 5000;

function refuse(issues: ArrangementIssue[]): never {
  const first = issues[0];
  const where = (p: (string | number)[]) => (p.length ? `entry ${p.map(String).join('.')}: ` : '');
  throw badInput(
    `Invalid arrangement scores (${issues.length}${issues.length >= 50 ? '+' : ''} problem${issues.length === 1 ? '' : 's'}): ${where(first.path)}${first.message}`,
    issues.map((i) => ({ code: 'invalid_arrangement_score', path: i.path, message: i.message })),
  );
}

export async function importArrangementScores(db: Db, doc: unknown): Promise<ArrangementImportReport> {
  const { entries, issues } = parseArrangementDocument(doc);
  if (issues.length > 0) refuse(issues);
  const titles = [...new Set(entries.map((e) => e.title))];
  const charts = await db.chart.findMany({
    where: { song: { title: { in: titles } } },
    select: { id: true, playStyle: true, difficulty: true, song: { select: { title: true } } },
  });
  const matcher = new ChartMatcher(
    charts.map((c) => ({ id: c.id, title: c.song.title, playStyle: c.playStyle, difficulty: c.difficulty })),
  );
  const unmatched: ArrangementIssue[] = [];
  const targets: { chartId: number; scores: Map<string, number> }[] = [];
  entries.forEach((e, i) => {
    const c = matcher.find(e.title, e.playStyle, e.difficulty);
    if (!c)
      unmatched.push({ path: [i], message: `no chart ${e.title} (${e.playStyle} ${e.difficulty}) in the catalogue` });
    else targets.push({ chartId: c.id, scores: e.scores });
  });
  if (unmatched.length > 0) refuse(unmatched.slice(0, 50));

  return db.$transaction(
    async (tx) => {
      const ids = targets.map((t) => t.chartId);
      const stored = new Map<number, StoredArrangement[]>();
      for (let k = 0; k < ids.length; k += 500) {
        const rows = await tx.arrangementScore.findMany({
          where: { chartId: { in: ids.slice(k, k + 500) } },
          select: { chartId: true, pattern: true, score: true, chartMax: true },
        });
        for (const r of rows) {
          const list = stored.get(r.chartId) ?? [];
          list.push(r);
          stored.set(r.chartId, list);
        }
      }
      const report: ArrangementImportReport = {
        charts: targets.length,
        added: 0,
        changed: 0,
        unchanged: 0,
        removed: 0,
      };
      const writes: { chartId: number; pattern: string; score: number; chartMax: number }[] = [];
      const removals: { chartId: number; pattern: string }[] = [];
      for (const t of targets) {
        const d = diffChart(t.scores, stored.get(t.chartId) ?? []);
        report.added += d.added;
        report.changed += d.changed;
        report.unchanged += d.unchanged;
        report.removed += d.removed.length;
        for (const w of d.writes) writes.push({ chartId: t.chartId, ...w });
        for (const pattern of d.removed) removals.push({ chartId: t.chartId, pattern });
      }
      for (let k = 0; k < removals.length; k += CHUNK) {
        await tx.$executeRawUnsafe(
          `DELETE FROM "ArrangementScore" a USING jsonb_to_recordset($1::jsonb) AS x("chartId" int, "pattern" text)
            WHERE a."chartId" = x."chartId" AND a."pattern" = x."pattern"`,
          JSON.stringify(removals.slice(k, k + CHUNK)),
        );
      }
      for (let k = 0; k < writes.length; k += CHUNK) {
        await tx.$executeRawUnsafe(
          `INSERT INTO "ArrangementScore" ("chartId", "pattern", "score", "chartMax", "importedAt")
           SELECT x."chartId", x."pattern", x."score", x."chartMax", now()
             FROM jsonb_to_recordset($1::jsonb) AS x("chartId" int, "pattern" text, "score" double precision, "chartMax" double precision)
           ON CONFLICT ("chartId", "pattern") DO UPDATE
             SET "score" = EXCLUDED."score", "chartMax" = EXCLUDED."chartMax", "importedAt" = now()`,
          JSON.stringify(writes.slice(k, k + CHUNK)),
        );
      }
      return report;
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
}
