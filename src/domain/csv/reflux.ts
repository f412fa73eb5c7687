import { Difficulty, PlayStyle } from '../constants';
import { cellOf, Collector, Columns, DIFFICULTY_BY_LETTER, type ChartCells, type ParseOptions } from './collector';
import { correctTitle, NO_CORRECTIONS } from './corrections';
import { readTable } from './text';
import { CsvFormatError, type ParseResult } from './types';

const REFLUX_GROUPS: { prefix: string; style: PlayStyle; d: Difficulty }[] = [
  ...(['B', 'N', 'H', 'A', 'L'] as const).map((l) => ({
    prefix: `SP${l}`,
    style: PlayStyle.SP,
    d: DIFFICULTY_BY_LETTER[l],
  })),
  ...(['B', 'N', 'H', 'A', 'L'] as const).map((l) => ({
    prefix: `DP${l}`,
    style: PlayStyle.DP,
    d: DIFFICULTY_BY_LETTER[l],
  })),
];

/**
 * Reflux TSV (INFINITAS): per row, one group of columns per chart ("<P> Rating" = level,
 * "<P> Lamp", "<P> EX Score", "<P> Miss Count", "<P> Note Count"; P = SPB…SPL, DPN…DPL), in every
 * header variant Reflux wrote (with or without Type/Label, "<P>" or "<P> Unlocked", with or without
 * SPB/SPL/DPL). A missing chart is an empty group. Exports of Reflux versions that wrote lamps
 * without EX scores are refused (nothing to import).
 */
export function parseRefluxTsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, '\t');
  const cols = new Columns(t.header);
  const title = cols.find('title');
  if (!title) throw new CsvFormatError('Reflux TSV: no "title" column');
  const groups = REFLUX_GROUPS.flatMap(({ prefix, style, d }) => {
    const lamp = cols.find(`${prefix} Lamp`);
    if (!lamp) return [];
    const score = cols.find(`${prefix} EX Score`);
    return [
      {
        style,
        d,
        prefix,
        cols: {
          lamp,
          score,
          miss: cols.find(`${prefix} Miss Count`),
          level: cols.find(`${prefix} Rating`),
          notes: cols.find(`${prefix} Note Count`),
        },
      },
    ];
  });
  if (groups.length === 0) throw new CsvFormatError('Reflux TSV: no "<SPx> Lamp" columns');
  if (groups.every((g) => !g.cols.score)) {
    throw new CsvFormatError(
      'Reflux TSV without "EX Score" columns (written by a Reflux older than 2021, lamps only): export it again with a current Reflux',
    );
  }
  const missing = groups.find((g) => !g.cols.score);
  if (missing) throw new CsvFormatError(`Reflux TSV: column "${missing.prefix} EX Score" is missing`);
  const out = new Collector(opts);
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const name = correctTitle((r.fields[title.at] ?? '').trim(), corrections);
    if (!name) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: 'title', value: '' });
      continue;
    }
    const chart: ChartCells = {
      line: r.line,
      title: name,
      playStyle: PlayStyle.SP,
      difficulty: Difficulty.BEGINNER,
      cell: cellOf(r.fields),
      block: true,
    };
    for (const g of groups) {
      chart.playStyle = g.style;
      chart.difficulty = g.d;
      out.chart(chart, g.cols);
    }
  }
  return out.result('reflux');
}
