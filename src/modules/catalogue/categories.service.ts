import type { Db } from '../../db/client';
import { Difficulty, PlayStyle, RADAR_CATEGORIES, type RadarCategory } from '../../domain/constants';
import { badInput } from '../../errors';
import { ChartMatcher } from './catalogue';

export interface RadarCategoryImportReport {
  total: number;
  matched: number;
  updated: number;
  unmatched: number;
  invalid: number;
  unmatchedSamples: string[];
}

const DIFFICULTIES = new Set<string>(Object.values(Difficulty));
const CATEGORIES = new Set<string>(RADAR_CATEGORIES);

/**
 * Imports radar categories in the reference format `[{title, difficulty, top}]` (one category per
 * SP chart, matched by song title + difficulty) into Chart.radarCategory, in one transaction.
 * Charts not in the file keep their category. Importing the same file twice changes nothing.
 */
export async function importRadarCategories(db: Db, doc: unknown): Promise<RadarCategoryImportReport> {
  if (!Array.isArray(doc)) throw badInput('Radar categories must be a JSON array of {title, difficulty, top}');
  const wanted = new Map<string, { title: string; difficulty: Difficulty; top: RadarCategory }>();
  let invalid = 0;
  for (const e of doc as unknown[]) {
    const o = e as Record<string, unknown> | null;
    const title = typeof o?.title === 'string' ? o.title : undefined;
    const difficulty = typeof o?.difficulty === 'string' ? o.difficulty.toUpperCase() : undefined;
    const top = typeof o?.top === 'string' ? o.top.toUpperCase() : undefined;
    if (!title || !difficulty || !DIFFICULTIES.has(difficulty) || !top || !CATEGORIES.has(top)) {
      invalid++;
      continue;
    }
    wanted.set(`${title}\u0000${difficulty}`, {
      title,
      difficulty: difficulty as Difficulty,
      top: top as RadarCategory,
    });
  }
  const titles = [...new Set([...wanted.values()].map((w) => w.title))];
  return db.$transaction(
    async (tx) => {
      const charts = await tx.chart.findMany({
        where: { playStyle: PlayStyle.SP, song: { title: { in: titles } } },
        select: { id: true, difficulty: true, radarCategory: true, song: { select: { title: true } } },
      });
      const matcher = new ChartMatcher(charts.map((c) => ({ ...c, title: c.song.title, playStyle: PlayStyle.SP })));
      const toSet = new Map<RadarCategory, number[]>();
      const unmatchedSamples: string[] = [];
      let matched = 0;
      let unmatched = 0;
      for (const w of wanted.values()) {
        const c = matcher.find(w.title, PlayStyle.SP, w.difficulty);
        if (!c) {
          unmatched++;
          if (unmatchedSamples.length < 20) unmatchedSamples.push(`${w.title} (${w.difficulty})`);
          continue;
        }
        matched++;
        if (c.radarCategory !== w.top) toSet.set(w.top, [...(toSet.get(w.top) ?? []), c.id]);
      }
      let updated = 0;
      for (const [cat, ids] of toSet) {
        updated += (await tx.chart.updateMany({ where: { id: { in: ids } }, data: { radarCategory: cat } })).count;
      }
      return { total: doc.length, matched, updated, unmatched, invalid, unmatchedSamples };
    },
    { timeout: 60_000 },
  );
}
