/**
 * The new-title caps of an import, inside its transaction (after the player's lock, so two imports
 * of one player count each other's titles): which titles the player already holds and how many
 * new ones they brought in the last 24 hours, read from their plays on provisional songs; the
 * verdict is src/domain/new-titles.ts. Rows of refused titles become problems naming the row.
 */
import { capNewTitles, type NewTitleLimits } from '../../domain/new-titles';
import { titleKey } from '../../domain/titles';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { DbLike } from './totals.service';
import type { ImportProblem } from './import-types';

/** What the caps read of a matched row (import-types.ts's MatchedRow; structural, no import back). */
interface CapRow {
  row: { line: number; title: string; difficulty: string };
  chart: CatalogueChart;
  learned?: boolean;
  newTitle?: string;
}
import { lockProvisionalShared } from '../catalogue/provisional.service';

/** Defaults of NEW_TITLES_PER_IMPORT / NEW_TITLES_PER_DAY (src/config.ts). */
export const DEFAULT_NEW_TITLE_LIMITS: NewTitleLimits = { perImport: 200, perDay: 500 };

const DAY_MS = 24 * 3600 * 1000;

/**
 * The caps (capNewTitlesInTx), then — when a taken row is on a provisional chart — the shared
 * provisional lock (src/modules/catalogue/provisional.service.ts), so no batch deletion or purge
 * removes such a chart before this import's plays are on it; a provisional chart the catalogue
 * knew but another transaction removed meanwhile turns its rows into problems.
 */
export async function takeNewTitles<MatchedRow extends CapRow>(
  tx: DbLike,
  userId: string,
  step1: { matched: readonly MatchedRow[]; learned: readonly CatalogueChart[] },
  limits: NewTitleLimits | undefined,
  now: Date,
): Promise<{ matched: MatchedRow[]; learned: CatalogueChart[]; problems: ImportProblem[] }> {
  const capped = await capNewTitlesInTx(tx, userId, step1, limits, now);
  if (!capped.matched.some((m) => m.chart.provisional)) return capped;
  await lockProvisionalShared(tx);
  const known = [...new Set(capped.matched.filter((m) => !m.learned && m.chart.provisional).map((m) => m.chart.id))];
  if (!known.length) return capped;
  const rows = await tx.chart.findMany({ where: { id: { in: known } }, select: { id: true } });
  const present = new Set(rows.map((r) => r.id));
  if (present.size === known.length) return capped;
  const matched: MatchedRow[] = [];
  for (const m of capped.matched) {
    if (m.learned || !m.chart.provisional || present.has(m.chart.id)) matched.push(m);
    else
      capped.problems.push({
        line: m.row.line,
        title: m.row.title,
        difficulty: m.row.difficulty,
        column: 'title',
        value: m.row.title,
        reason: 'the provisional chart was removed meanwhile: import the file again',
        severity: 'error',
      });
  }
  return { ...capped, matched };
}

export async function capNewTitlesInTx<MatchedRow extends CapRow>(
  tx: DbLike,
  userId: string,
  step1: { matched: readonly MatchedRow[]; learned: readonly CatalogueChart[] },
  limits: NewTitleLimits = DEFAULT_NEW_TITLE_LIMITS,
  now: Date,
): Promise<{ matched: MatchedRow[]; learned: CatalogueChart[]; problems: ImportProblem[] }> {
  // a learned chart is created only for a row that is taken (an invalid or zero-score row learns nothing)
  const used = (matched: readonly MatchedRow[]) => {
    const charts = new Set(matched.map((m) => m.chart));
    return step1.learned.filter((c) => charts.has(c));
  };
  if (!step1.matched.some((m) => m.newTitle !== undefined))
    return { matched: [...step1.matched], learned: used(step1.matched), problems: [] };
  // the provisional songs the player holds plays on, each with the time of the first of them
  const rows = await tx.$queryRawUnsafe<{ title: string; first: Date }[]>(
    `SELECT so."title", min(s."createdAt") AS "first"
       FROM "Score" s JOIN "Chart" c ON c."id" = s."chartId" JOIN "Song" so ON so."id" = c."songId"
      WHERE s."userId" = $1 AND so."provisional"
      GROUP BY so."title"`,
    userId,
  );
  const since = now.getTime() - DAY_MS;
  const held = new Set(rows.map((r) => titleKey(r.title)));
  const today = rows.filter((r) => new Date(r.first).getTime() > since).length;
  const verdict = capNewTitles(
    step1.matched.map((m) => ({ line: m.row.line, newTitle: m.newTitle })),
    held,
    today,
    limits,
  );
  if (verdict.refused.size === 0) return { matched: [...step1.matched], learned: used(step1.matched), problems: [] };
  const problems: ImportProblem[] = [];
  const matched: MatchedRow[] = [];
  for (const m of step1.matched) {
    const reason = m.newTitle !== undefined ? verdict.refused.get(m.newTitle) : undefined;
    if (reason === undefined) matched.push(m);
    else
      problems.push({
        line: m.row.line,
        title: m.row.title,
        difficulty: m.row.difficulty,
        column: 'title',
        value: m.row.title,
        reason,
        severity: 'error',
      });
  }
  return { matched, learned: used(matched), problems };
}
