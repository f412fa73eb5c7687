/**
 * The published BPI definitions format ({version, requireVersion, body: [...]}) and its
 * normalisation. Pure: survives the real quirks (numbers as strings, coef as a string,
 * -1 = unknown, removed charts, exact duplicate entries).
 */
import { Difficulty, PlayStyle } from './constants';

export const DIFFICULTY_CODES: Record<string, { playStyle: PlayStyle; difficulty: Difficulty }> = {
  '3': { playStyle: PlayStyle.SP, difficulty: Difficulty.HYPER },
  '4': { playStyle: PlayStyle.SP, difficulty: Difficulty.ANOTHER },
  '10': { playStyle: PlayStyle.SP, difficulty: Difficulty.LEGGENDARIA },
  '8': { playStyle: PlayStyle.DP, difficulty: Difficulty.HYPER },
  '9': { playStyle: PlayStyle.DP, difficulty: Difficulty.ANOTHER },
  '11': { playStyle: PlayStyle.DP, difficulty: Difficulty.LEGGENDARIA },
};

export interface NormalizedDefinition {
  title: string;
  playStyle: PlayStyle;
  difficulty: Difficulty;
  level: number;
  notes: number;
  bpm: string;
  textage: string | null;
  releasedVersion: number | null;
  wr: number | null;
  kaidenAvg: number | null;
  coef: number | null;
  /** Game version from which the chart is removed, when the entry says so. */
  removedInVersion: string | null;
}

export interface NormalizedDocument {
  version: string;
  requireVersion: string | null;
  entries: NormalizedDefinition[];
  duplicates: number;
  problems: { index: number; title?: string; reason: string }[];
}

export class DefinitionsFormatError extends Error {}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** -1, 0, missing or garbage → unknown (null). */
const positiveOrNull = (v: unknown) => {
  const n = num(v);
  return n !== null && n > 0 ? n : null;
};

export function normalizeDefinitions(doc: unknown): NormalizedDocument {
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as { body?: unknown }).body)) {
    throw new DefinitionsFormatError('Not a definitions document: expected {version, body: [...]}');
  }
  const d = doc as { version?: unknown; requireVersion?: unknown; body: unknown[] };
  const version = d.version === undefined || d.version === null ? '' : String(d.version).trim();
  if (!/^[0-9A-Za-z._-]{1,40}$/.test(version))
    throw new DefinitionsFormatError('Definitions document has no valid version');
  const seen = new Map<string, string>();
  const entries: NormalizedDefinition[] = [];
  const problems: NormalizedDocument['problems'] = [];
  let duplicates = 0;
  d.body.forEach((raw, index) => {
    if (!raw || typeof raw !== 'object') return problems.push({ index, reason: 'entry is not an object' });
    const e = raw as Record<string, unknown>;
    const title = typeof e.title === 'string' ? e.title : '';
    if (!title) return problems.push({ index, reason: 'missing title' });
    const code = DIFFICULTY_CODES[String(e.difficulty ?? '')];
    if (!code)
      return problems.push({ index, title, reason: `unknown difficulty code ${JSON.stringify(e.difficulty)}` });
    const notes = num(e.notes);
    if (notes === null || !Number.isInteger(notes) || notes <= 0)
      return problems.push({ index, title, reason: 'notes must be a positive integer' });
    const level = num(e.difficultyLevel);
    if (level === null || !Number.isInteger(level) || level < 1 || level > 12)
      return problems.push({ index, title, reason: 'difficultyLevel must be 1–12' });
    const textage = typeof e.textage === 'string' && e.textage ? e.textage : null;
    const folder = textage ? Number(textage.split('/')[0]) : NaN;
    const removed = e.removed === true || e.removed === 'true' || e.removed === 1;
    const delVer = num(e.delVer);
    const entry: NormalizedDefinition = {
      title,
      ...code,
      level,
      notes,
      bpm: typeof e.bpm === 'string' ? e.bpm : e.bpm === undefined || e.bpm === null ? '' : String(e.bpm),
      textage,
      releasedVersion: Number.isInteger(folder) && folder > 0 ? folder : null,
      wr: positiveOrNull(e.wr),
      kaidenAvg: positiveOrNull(e.avg),
      coef: positiveOrNull(e.coef),
      removedInVersion: removed ? (delVer !== null ? String(delVer) : 'unknown') : null,
    };
    const key = `${title}\u0000${code.playStyle}\u0000${code.difficulty}`;
    const sig = JSON.stringify(entry);
    const prev = seen.get(key);
    if (prev !== undefined) {
      duplicates++;
      if (prev !== sig) {
        // Conflicting duplicate: the later entry wins, and it is reported.
        problems.push({ index, title, reason: 'duplicate chart with different values; the later entry is used' });
        const at = entries.findIndex((x) => `${x.title}\u0000${x.playStyle}\u0000${x.difficulty}` === key);
        entries[at] = entry;
        seen.set(key, sig);
      }
      return;
    }
    seen.set(key, sig);
    entries.push(entry);
  });
  const requireVersion = d.requireVersion === undefined || d.requireVersion === null ? null : String(d.requireVersion);
  return { version, requireVersion, entries, duplicates, problems };
}
