/**
 * Arrangement scores (docs/domain/optimizer.md#lane-tickets, "配置スコア"): precomputed data, one score per (chart, lane
 * pattern) — how favourable that lane arrangement is on that chart (higher is better). Imported by
 * an admin; this is the pure validation of the import file and the diff against what is stored.
 *
 * File format (JSON array, one entry per chart; docs/guide/imports.md):
 *
 *   [{ "title": "卑弥呼", "difficulty": "ANOTHER", "playStyle": "SP",
 *      "scores": { "1234567": 41.5, "7654321": 38.25, "2641753": 12 } }]
 *
 * - title: the catalogue's song title (exact); difficulty: BEGINNER…LEGGENDARIA; playStyle SP (default) or DP;
 * - scores: 1 to 5,040 entries, each key a lane pattern (7 distinct digits 1–7), each value a finite number;
 * - a chart appears at most once. An entry replaces ALL stored scores of its chart (a pattern the
 *   entry no longer lists is removed); charts the file does not name keep theirs. Importing the
 *   same file twice changes nothing.
 */
import { patternProblem } from '../fingering';
import { Difficulty, PlayStyle } from '../constants';

export interface ArrangementEntry {
  title: string;
  difficulty: Difficulty;
  playStyle: PlayStyle;
  /** pattern → score */
  scores: Map<string, number>;
}

export interface ArrangementIssue {
  /** Where: entry index, then the field (`[3, 'scores', '1234568']`). */
  path: (string | number)[];
  message: string;
}

const DIFFICULTIES = new Set<string>(Object.values(Difficulty));
const STYLES = new Set<string>(Object.values(PlayStyle));

/** Validates a whole import document; every problem is listed (at most `maxIssues`), nothing is partial. */
export function parseArrangementDocument(
  doc: unknown,
  maxIssues = 50,
): { entries: ArrangementEntry[]; issues: ArrangementIssue[] } {
  const issues: ArrangementIssue[] = [];
  const entries: ArrangementEntry[] = [];
  const push = (path: (string | number)[], message: string) => {
    if (issues.length < maxIssues) issues.push({ path, message });
  };
  if (!Array.isArray(doc)) {
    push([], 'expected a JSON array of {title, difficulty, playStyle?, scores: {pattern: number}}');
    return { entries, issues };
  }
  const seen = new Map<string, number>();
  doc.forEach((raw, i) => {
    const o = raw as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || Array.isArray(o))
      return push([i], 'expected an object {title, difficulty, playStyle?, scores}');
    const title = o.title;
    const difficulty = o.difficulty;
    const playStyle = o.playStyle ?? PlayStyle.SP;
    let ok = true;
    if (typeof title !== 'string' || title.trim() === '') {
      push([i, 'title'], 'title must be a non-empty string');
      ok = false;
    }
    if (typeof difficulty !== 'string' || !DIFFICULTIES.has(difficulty)) {
      push([i, 'difficulty'], `difficulty must be one of ${[...DIFFICULTIES].join(', ')}`);
      ok = false;
    }
    if (typeof playStyle !== 'string' || !STYLES.has(playStyle)) {
      push([i, 'playStyle'], 'playStyle must be SP or DP');
      ok = false;
    }
    const scores = new Map<string, number>();
    const s = o.scores;
    if (!s || typeof s !== 'object' || Array.isArray(s)) {
      push([i, 'scores'], 'scores must be an object {pattern: number}');
      ok = false;
    } else {
      const keys = Object.keys(s);
      if (keys.length === 0) {
        push([i, 'scores'], 'scores must list at least one pattern');
        ok = false;
      }
      for (const p of keys) {
        const problem = patternProblem(p);
        const v = (s as Record<string, unknown>)[p];
        if (problem) {
          push([i, 'scores', p], problem);
          ok = false;
        } else if (typeof v !== 'number' || !Number.isFinite(v)) {
          push([i, 'scores', p], 'score must be a finite number');
          ok = false;
        } else scores.set(p, v);
      }
    }
    if (!ok) return;
    const key = `${title}\u0000${playStyle}\u0000${difficulty}`;
    const dup = seen.get(key);
    if (dup !== undefined) return push([i], `the same chart as entry ${dup}`);
    seen.set(key, i);
    entries.push({
      title: title as string,
      difficulty: difficulty as Difficulty,
      playStyle: playStyle as PlayStyle,
      scores,
    });
  });
  return { entries, issues };
}

export interface StoredArrangement {
  pattern: string;
  score: number;
  chartMax: number;
}

export interface ArrangementWrite {
  pattern: string;
  score: number;
  chartMax: number;
}

/**
 * What an entry changes on one chart: rows to write (new, or a different score or chart maximum),
 * patterns to remove, and the counts. chartMax = the highest score of the entry.
 */
export function diffChart(entry: ReadonlyMap<string, number>, stored: readonly StoredArrangement[]) {
  let chartMax = -Infinity;
  for (const v of entry.values()) chartMax = Math.max(chartMax, v);
  const old = new Map(stored.map((r) => [r.pattern, r]));
  const writes: ArrangementWrite[] = [];
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  for (const [pattern, score] of entry) {
    const o = old.get(pattern);
    if (!o) added++;
    else if (o.score !== score) changed++;
    else if (o.chartMax === chartMax) {
      unchanged++;
      continue;
    } else unchanged++; // same score; only the chart's maximum moved
    writes.push({ pattern, score, chartMax });
  }
  const removed = stored.filter((r) => !entry.has(r.pattern)).map((r) => r.pattern);
  return { writes, removed, added, changed, unchanged };
}
