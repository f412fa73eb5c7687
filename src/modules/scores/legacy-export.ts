/**
 * Reading the older app's export (docs/domain/imports.md#migration-from-the-older-app) on plain
 * data: the JSON parsed and checked (versions known, at most MIGRATION_MAX_ENTRIES history
 * entries, every kept entry's date sane — the whole migration or nothing), each version's
 * history entries in play order with the export's current lamp / miss count on the latest entry
 * of each chart. A light module, so that the worker pool can load it (migrate.task.ts); matching
 * the entries to charts and the writes stay in migrate.service.ts.
 */
import { isGameVersion, LAMP_ORDER, type ClearLamp } from '../../domain/constants';
import { jstToUtc, normalizeWallClock } from '../../domain/csv';
import { playDateProblem } from '../../domain/dates';
import { badInput } from '../../errors';

/** History entries per migration (all versions). */
export const MIGRATION_MAX_ENTRIES = 100_000;

/** The older app numbers lamps 0 = FAILED … 6 = FULLCOMBO CLEAR: the lamp order without NO PLAY. */
const LEGACY_LAMPS = LAMP_ORDER.slice(1);

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

/** One history entry to match: its play time, and the export's lamp / miss count when it is the chart's latest. */
export interface LegacyEntry {
  title: string;
  /** upper case, as the catalogue's difficulties */
  difficulty: string;
  exScore: number;
  at: Date;
  clearLamp: ClearLamp | null;
  missCount: number | null;
}

export interface LegacyVersion {
  version: string;
  /** in play order (a stable sort of the export's order) */
  entries: LegacyEntry[];
}

/**
 * The export's versions with history, in the document's order; BAD_USER_INPUT for a document that
 * is not JSON, not an object keyed by game version, too long a history, a play date outside the
 * sane range (naming data.<version>.scoresHistory[i]) or no history at all.
 */
export function readLegacyExport(data: string, now: number): LegacyVersion[] {
  let doc: unknown;
  try {
    doc = JSON.parse(data);
  } catch {
    throw badInput('data is not JSON', [{ code: 'invalid_json', path: ['data'], message: 'data is not JSON' }]);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw badInput('data must be an object keyed by game version');
  const out: LegacyVersion[] = [];
  let entries = 0;
  for (const [version, body] of Object.entries(doc as Record<string, unknown>)) {
    if (!isGameVersion(version))
      throw badInput(`Unknown game version ${JSON.stringify(version)}`, [
        { code: 'invalid_enum_value', path: ['data', version], message: 'Unknown game version' },
      ]);
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
    const meta = new Map<string, { lamp: ClearLamp | null; miss: number | null }>();
    for (const m of Object.values(b.scores ?? {})) {
      if (!m?.title || !m.difficulty) continue;
      const miss = Number(m.missCount);
      meta.set(`${m.title}\u0000${m.difficulty.toUpperCase()}`, {
        lamp: legacyLamp(m.clearState),
        miss: Number.isInteger(miss) && miss >= 0 ? miss : null,
      });
    }
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
    // latest entry per chart (gets the export's current lamp / miss count)
    const lastIdx = new Map<string, number>();
    items.forEach((x, i) => lastIdx.set(`${x.h.title}\u0000${x.h.difficulty.toUpperCase()}`, i));
    out.push({
      version,
      entries: items.map((x, i) => {
        const difficulty = x.h.difficulty.toUpperCase();
        const key = `${x.h.title}\u0000${difficulty}`;
        const m = lastIdx.get(key) === i ? meta.get(key) : undefined;
        return {
          title: x.h.title,
          difficulty,
          exScore: x.h.exScore,
          at: x.at,
          clearLamp: m?.lamp ?? null,
          missCount: m?.miss ?? null,
        };
      }),
    });
  }
  if (out.length === 0) throw badInput('No importable data found.');
  return out;
}
