/**
 * The pure steps of a score import (import.service.ts runs them in its transaction): rows matched
 * to charts (matchRows; in slices: matchRowsSliced), the plays that improve the player's bests
 * (improvingPlays) and the best rows to write (bestUpserts).
 */
import { PlayStyle } from '../../domain/constants';
import { correctTitle, jstToUtc, normalizeWallClock, type TitleCorrections } from '../../domain/csv';
import { playDateProblem } from '../../domain/dates';
import { applyPlay, improvements, type Best } from '../../domain/scores';
import { titleKey } from '../../domain/titles';
import { sliceClock } from '../../db/yield';
import type { CatalogueChart } from '../catalogue/catalogue';
import { assertCurrentDefinitions, type DefinitionsFingerprint } from './current-definitions';
import type { Candidate, ImportCatalogue, ImportProblem, ImportReport, MatchedRow } from './import-types';
import type { ImportRow } from './parse-export';

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
