/**
 * The chart attribute import (Mutation.importChartAttributes, `cli charts import-attributes`): the
 * attribute vectors similar charts are computed from, matched to charts by title, play style and
 * difficulty.
 */
import type { Db } from '../../db/client';
import { Prisma } from '../../generated/prisma/client';
import { Difficulty, PlayStyle } from '../../domain/constants';
import { mergeAttributeVector, toAttributeVector, type AttributeVector } from '../../domain/similarity';
import { ChartMatcher } from '../catalogue/catalogue';

export interface AttributeImportEntry {
  title: string;
  difficulty: string;
  playStyle?: string | null;
  attributes: unknown;
}

export interface AttributeImportReport {
  updated: number;
  unchanged: number;
  problems: { index: number; title: string | null; reason: string }[];
}

const DIFFICULTY_ORDER = Object.values(Difficulty) as string[];

/**
 * Imports attribute vectors ({title, difficulty, playStyle?, attributes: {name: number}}),
 * matched by title + play style (default SP) + difficulty. One transaction; entries that do
 * not match or are malformed are reported, not fatal. Importing the same data twice changes nothing.
 */
export async function importChartAttributes(db: Db, entries: AttributeImportEntry[]): Promise<AttributeImportReport> {
  const charts = await db.chart.findMany({
    select: { id: true, playStyle: true, difficulty: true, attributes: true, song: { select: { title: true } } },
  });
  const matcher = new ChartMatcher(charts.map((c) => ({ ...c, title: c.song.title })));
  const report: AttributeImportReport = { updated: 0, unchanged: 0, problems: [] };
  const updates = new Map<number, AttributeVector>();
  entries.forEach((e, index) => {
    const title = typeof e?.title === 'string' ? e.title : null;
    const problem = (reason: string) => report.problems.push({ index, title, reason });
    if (!title) return problem('title is required');
    const difficulty = typeof e.difficulty === 'string' ? e.difficulty.toUpperCase() : '';
    if (!DIFFICULTY_ORDER.includes(difficulty)) return problem(`unknown difficulty: ${String(e.difficulty)}`);
    const playStyle = e.playStyle == null ? PlayStyle.SP : String(e.playStyle).toUpperCase();
    if (playStyle !== PlayStyle.SP && playStyle !== PlayStyle.DP)
      return problem(`unknown playStyle: ${String(e.playStyle)}`);
    const raw = attributesOf(e);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      return problem('attributes must be an object of numbers');
    const bad = Object.entries(raw as Record<string, unknown>).find(
      ([, v]) => typeof v !== 'number' || !Number.isFinite(v),
    );
    if (bad) return problem(`attribute ${bad[0]} is not a finite number`);
    const vector = toAttributeVector(raw);
    if (!vector) return problem('attributes is empty');
    const chart = matcher.find(title, playStyle, difficulty as Difficulty);
    if (!chart) return problem('no such chart');
    if (updates.has(chart.id)) return problem('duplicate entry for this chart');
    updates.set(chart.id, vector);
  });
  const current = new Map(charts.map((c) => [c.id, toAttributeVector(c.attributes)]));
  // each family present (p_*, g_*, other) replaces that family; the others stay (two files, one per vector set)
  for (const [id, v] of updates) updates.set(id, mergeAttributeVector(current.get(id) ?? null, v));
  const changed = [...updates].filter(
    ([id, v]) => JSON.stringify(sortKeys(current.get(id) ?? null)) !== JSON.stringify(sortKeys(v)),
  );
  report.unchanged = updates.size - changed.length;
  report.updated = changed.length;
  if (changed.length) {
    await db.$transaction(async (tx) => {
      for (const [id, v] of changed)
        await tx.chart.update({ where: { id }, data: { attributes: sortKeys(v) as Prisma.InputJsonValue } });
    });
  }
  return report;
}

/**
 * The attribute object of an import entry, in the shapes the reference's data comes in:
 * `attributes: {name: number}`; `attributes: {profile: {scratch: …}, global: {…}}` (→ p_* / g_*);
 * or the reference's songAttributes row / song-list element with the 22 `p_*` / `g_*` columns at
 * the top level (null columns left out: a missing attribute counts as 0).
 */
function attributesOf(e: AttributeImportEntry): unknown {
  const raw = e.attributes as Record<string, unknown> | undefined | null;
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && ('profile' in raw || 'global' in raw)) {
    const out: Record<string, unknown> = {};
    for (const [set, prefix] of [
      ['profile', 'p_'],
      ['global', 'g_'],
    ] as const) {
      const part = raw[set];
      if (part == null) continue;
      if (typeof part !== 'object' || Array.isArray(part)) return null;
      for (const [k, v] of Object.entries(part as Record<string, unknown>)) if (v !== null) out[`${prefix}${k}`] = v;
    }
    return out;
  }
  if (raw === undefined || raw === null) {
    const top = Object.entries(e as unknown as Record<string, unknown>).filter(
      ([k, v]) => /^[pg]_[a-z_]+$/.test(k) && v !== null,
    );
    return top.length ? Object.fromEntries(top) : raw;
  }
  return raw;
}

function sortKeys(v: AttributeVector | null): AttributeVector | null {
  if (!v) return null;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
