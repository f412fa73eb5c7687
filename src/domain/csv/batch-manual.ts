/**
 * Tachi's BATCH-MANUAL JSON (docs/portability.md), both ways, as pure functions of plain data:
 * `parseBatchManual` reads a document into the rows every export parser produces, and
 * `batchManualScore` / `batchManualHead` write one (the export route streams them).
 *
 * The document: `{ meta: { game: "iidx", playtype: "SP" | "DP", service, version? },
 * scores: [{ score, lamp, matchType, identifier, difficulty, timeAchieved?, judgements?,
 * optional? }] }`. The whole document is validated with zod: a document that is not one (not JSON,
 * no `meta`, another game, `scores` not an array) is refused with one error naming the first
 * problem; each score is validated on its own, a bad one is reported with its index and reason and
 * the good ones are kept. Unknown fields are ignored.
 *
 * Positions: a row's `line` is its 1-based position in `scores` (`scores[0]` is line 1); issues
 * name the field as `scores[i].field`.
 */
import { z } from 'zod';
import { ClearLamp, Difficulty, GAME_VERSIONS, LAMP_LABEL, PlayStyle } from '../constants';
import { plausiblePlayTime } from './text';
import { CsvFormatError, type ParseIssue, type ParseResult, type ParsedRow } from './types';

/** Our lamps as Tachi names them (iidx SP/DP lamps: FULL COMBO, not FULLCOMBO CLEAR). */
export const TACHI_LAMP: Record<ClearLamp, string> = { ...LAMP_LABEL, FULLCOMBO_CLEAR: 'FULL COMBO' };

/** Tachi lamp names (and the official CSV's spellings, which other tools write) → our lamps. */
const LAMP_FROM_TACHI = new Map<string, ClearLamp>([
  ...Object.entries(TACHI_LAMP).map(([k, v]) => [v, k as ClearLamp] as const),
  ['FULLCOMBO CLEAR', ClearLamp.FULLCOMBO_CLEAR],
  ['FULL COMBO CLEAR', ClearLamp.FULLCOMBO_CLEAR],
]);

const DIFFICULTIES = new Set<string>(Object.values(Difficulty));

/** Tachi's id of the service field: 3–60 characters there; we write "bpigraph". */
export const BATCH_MANUAL_SERVICE = 'bpigraph';

/** Our version → Tachi's iidx version id ("33", "inf"). */
export const tachiVersion = (version: string): string => (version === 'INF' ? 'inf' : version);
/** Tachi's iidx version id → ours, when it names one of ours (else undefined: "27-omni", "bmus"…). */
export function versionFromTachi(v: string | null | undefined): string | undefined {
  if (!v) return undefined;
  const ours = v.toLowerCase() === 'inf' ? 'INF' : v;
  return (GAME_VERSIONS as readonly string[]).includes(ours) ? ours : undefined;
}

const count = z.number().int().nonnegative().nullable().optional();

const DocumentSchema = z.object(
  {
    meta: z.object(
      {
        game: z.literal('iidx', { error: 'expected "iidx" (this server tracks beatmania IIDX)' }),
        playtype: z.enum(['SP', 'DP'], { error: 'expected "SP" or "DP"' }),
        service: z.string({ error: 'expected a string' }),
        version: z.string().nullable().optional(),
      },
      { error: 'expected an object { game, playtype, service }' },
    ),
    scores: z.array(z.unknown(), { error: 'expected an array of scores' }),
  },
  { error: 'expected a JSON object { meta, scores }' },
);

const ScoreSchema = z.object(
  {
    score: z.number({ error: 'expected a number' }).int('expected an integer').nonnegative('expected an EX score ≥ 0'),
    lamp: z.string({ error: 'expected a string' }),
    matchType: z.string({ error: 'expected a string' }),
    identifier: z.string({ error: 'expected a string' }),
    difficulty: z.string({ error: 'expected a string' }).nullable().optional(),
    timeAchieved: z
      .number({ error: 'expected unix milliseconds' })
      .int('expected integer milliseconds')
      .nullable()
      .optional(),
    judgements: z.object({ pgreat: count, great: count, good: count, bad: count, poor: count }).nullable().optional(),
    optional: z.object({ bp: count }).nullable().optional(),
  },
  { error: 'expected a score object' },
);

/** The first issue of a zod error as "path: message". */
function firstIssue(err: z.ZodError, prefix: string): { path: string; message: string } {
  const issue = err.issues[0];
  const path = [prefix, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('');
  return { path: path.replace(/^\./, ''), message: issue.message };
}

export interface BatchManualParseOptions {
  /** Play styles to emit (others counted as skipped). Default: SP only. */
  playStyles?: readonly PlayStyle[];
  /** Maximum EX score of a chart when known; a larger score drops that score with an issue. */
  maxExScore?: (chart: { title: string; playStyle: PlayStyle; difficulty: Difficulty }) => number | undefined;
  /** Tachi song id → exact title, when a mapping is configured (matchType tachiSongID). */
  tachiSongTitle?: (id: string) => string | undefined;
  /** Play times after now + 1 day are implausible. Default: now. */
  now?: Date;
}

/** Does the text look like a JSON document (first non-blank character `{`)? */
export function looksLikeJson(text: string): boolean {
  const m = /^[\s\ufeff]*(\S)/.exec(text.slice(0, 4096));
  return m?.[1] === '{';
}

/** Unix milliseconds → JST wall clock "YYYY-MM-DD HH:mm:ss". */
export function msToJstWallClock(ms: number): string {
  return new Date(ms + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A BATCH-MANUAL document → rows. Throws CsvFormatError naming the first problem when the text
 * is not a BATCH-MANUAL document for IIDX; reports each bad score with its index.
 */
export function parseBatchManual(
  text: string,
  opts: BatchManualParseOptions = {},
): ParseResult & { documentVersion?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new CsvFormatError(`BATCH-MANUAL: not valid JSON (${(err as Error).message})`);
  }
  const doc = DocumentSchema.safeParse(json);
  if (!doc.success) {
    const { path, message } = firstIssue(doc.error, '');
    throw new CsvFormatError(`BATCH-MANUAL: ${path || 'document'}: ${message}`);
  }
  const { meta, scores } = doc.data;
  const style = meta.playtype === 'DP' ? PlayStyle.DP : PlayStyle.SP;
  const styles = new Set(opts.playStyles ?? [PlayStyle.SP]);
  const now = opts.now ?? new Date();
  const rows: ParsedRow[] = [];
  const issues: ParseIssue[] = [];
  let skipped = 0;
  scores.forEach((raw, i) => {
    const at = `scores[${i}]`;
    const line = i + 1;
    const bad = (field: string, value: unknown, reason: string, severity: ParseIssue['severity'] = 'error') => {
      if (issues.length >= 1000) return;
      const issue: ParseIssue = { line, column: field ? `${at}.${field}` : at, reason: `${at}: ${reason}`, severity };
      if (value !== undefined) issue.value = typeof value === 'string' ? value : JSON.stringify(value);
      issues.push(issue);
    };
    const parsed = ScoreSchema.safeParse(raw);
    if (!parsed.success) {
      const { path, message } = firstIssue(parsed.error, '');
      const field = path.replace(/^\./, '');
      const value =
        field && raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field.split(/[.[]/)[0]] : raw;
      return bad(field, value, `${field || 'score'}: ${message}; the score is skipped`);
    }
    const s = parsed.data;
    // 1. the chart: title + difficulty
    let title: string;
    if (s.matchType === 'songTitle') title = s.identifier;
    else if (s.matchType === 'tachiSongID') {
      const known = opts.tachiSongTitle?.(s.identifier);
      if (!known) {
        return bad(
          'identifier',
          s.identifier,
          `no mapping from Tachi song id ${JSON.stringify(s.identifier)} to a title is ` +
            'known here; export it with matchType "songTitle"; the score is skipped',
        );
      }
      title = known;
    } else {
      return bad(
        'matchType',
        s.matchType,
        `matchType ${JSON.stringify(s.matchType)} is not supported ` +
          '(songTitle, or tachiSongID where a mapping is known); the score is skipped',
      );
    }
    if (title.trim() === '') return bad('identifier', s.identifier, 'empty title; the score is skipped');
    const difficulty = (s.difficulty ?? '').trim().toUpperCase();
    if (!DIFFICULTIES.has(difficulty)) {
      return bad(
        'difficulty',
        s.difficulty ?? null,
        `difficulty ${JSON.stringify(s.difficulty ?? null)} is not one of ` +
          'BEGINNER, NORMAL, HYPER, ANOTHER, LEGGENDARIA; the score is skipped',
      );
    }
    const d = difficulty as Difficulty;
    // 2. play style, lamp, score
    if (!styles.has(style)) return void skipped++;
    const lamp = LAMP_FROM_TACHI.get(s.lamp.trim().toUpperCase());
    if (lamp === undefined) return bad('lamp', s.lamp, `unknown lamp ${JSON.stringify(s.lamp)}; the score is skipped`);
    if (s.score === 0) return void skipped++; // a chart without a play
    // NO PLAY with an EX score: a score without a lamp (ParsedRow.clearLamp null), kept
    const max = opts.maxExScore?.({ title, playStyle: style, difficulty: d });
    if (max !== undefined && s.score > max) {
      return bad('score', s.score, `EX score ${s.score} is over the chart's maximum ${max}; the score is skipped`);
    }
    // 3. secondary fields: a bad value is reported and left unknown, the score is kept
    let lastPlayed: string | null = null;
    if (s.timeAchieved != null) {
      const wall = msToJstWallClock(s.timeAchieved);
      if (Number.isFinite(new Date(s.timeAchieved).getTime()) && plausiblePlayTime(wall, now)) lastPlayed = wall;
      else
        bad(
          'timeAchieved',
          s.timeAchieved,
          'timeAchieved is not a plausible play time; the import time is used',
          'warning',
        );
    }
    const j = s.judgements ?? {};
    const bp = s.optional?.bp ?? (j.bad != null && j.poor != null ? j.bad + j.poor : null);
    const row: ParsedRow = {
      line,
      title,
      playStyle: style,
      difficulty: d,
      level: null,
      notes: null,
      exScore: s.score,
      clearLamp: lamp === ClearLamp.NO_PLAY ? null : lamp,
      missCount: bp,
      lastPlayed,
    };
    if (j.pgreat != null || j.great != null) {
      if (j.pgreat != null && j.great != null && j.pgreat * 2 + j.great !== s.score) {
        bad(
          'judgements',
          j,
          `pgreat × 2 + great = ${j.pgreat * 2 + j.great}, not the EX score ${s.score}; ` +
            'the judgements are dropped',
          'warning',
        );
      } else row.judgements = { pgreat: j.pgreat ?? null, great: j.great ?? null };
    }
    rows.push(row);
  });
  const documentVersion = versionFromTachi(meta.version);
  return { format: 'batch_manual', rows, issues, skipped, absent: 0, ...(documentVersion ? { documentVersion } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** One best or play as the export reads it. */
export interface BatchManualSource {
  title: string;
  difficulty: Difficulty;
  exScore: number;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  playedAt: Date;
  pgreat: number | null;
  great: number | null;
  /** single-chart BPI (null: no definition); written only when `withBpi` */
  bpi: number | null;
}

/** The document's opening, up to the `scores` array's `[` (the scores follow, comma-separated, then `]}`). */
export function batchManualHead(playStyle: PlayStyle, version: string): string {
  const meta = { game: 'iidx', playtype: playStyle, service: BATCH_MANUAL_SERVICE, version: tachiVersion(version) };
  return `{"meta":${JSON.stringify(meta)},"scores":[`;
}
export const BATCH_MANUAL_TAIL = ']}\n';

/**
 * One score as BATCH-MANUAL: matchType songTitle with the exact title, Tachi's lamp name, time in
 * unix ms, judgements when known, the miss count as `optional.bp` and (withBpi) the BPI as
 * `optional.bpi` — Tachi validates `optional` against its own metric names, so a file for Tachi
 * is exported with bpi=false (docs/portability.md).
 */
export function batchManualScore(s: BatchManualSource, withBpi: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    score: s.exScore,
    lamp: TACHI_LAMP[s.clearLamp ?? ClearLamp.NO_PLAY],
    matchType: 'songTitle',
    identifier: s.title,
    difficulty: s.difficulty,
    timeAchieved: s.playedAt.getTime(),
  };
  if (s.pgreat !== null || s.great !== null) {
    const j: Record<string, number> = {};
    if (s.pgreat !== null) j.pgreat = s.pgreat;
    if (s.great !== null) j.great = s.great;
    out.judgements = j;
  }
  const optional: Record<string, number> = {};
  if (s.missCount !== null) optional.bp = s.missCount;
  if (withBpi && s.bpi !== null) optional.bpi = s.bpi;
  if (Object.keys(optional).length) out.optional = optional;
  return out;
}
