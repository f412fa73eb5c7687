/**
 * The tools that write one chart a row: the daken counter CSV and the result techo CSV (both
 * INFINITAS), the chart named by a mode or difficulty cell.
 */
import { Difficulty, PlayStyle } from '../constants';
import { cellOf, Collector, Columns, DIFFICULTY_BY_LETTER, type ChartColumns, type ParseOptions } from './collector';
import { correctTitle, NO_CORRECTIONS } from './corrections';
import { readTable } from './text';
import { type ParseResult } from './types';

/**
 * The row loop of both formats: the title (corrected; empty → the line is skipped), the chart named
 * by one cell (`classify`: style and difficulty, 'battle' → counted as skipped, unknown → the chart
 * is skipped with an error naming the cell), then the chart's cells.
 */
function oneChartPerRow(
  rows: readonly { line: number; fields: string[] }[],
  opts: ParseOptions,
  spec: {
    title: { name: string; at: number };
    chart: { name: string; at: number };
    chartCols: ChartColumns;
    what: string;
    classify: (raw: string) => { style: PlayStyle; d: Difficulty } | 'battle' | undefined;
  },
): Collector {
  const out = new Collector(opts);
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of rows) {
    const f = r.fields;
    const name = correctTitle((f[spec.title.at] ?? '').trim(), corrections);
    if (!name) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: spec.title.name, value: '' });
      continue;
    }
    const raw = (f[spec.chart.at] ?? '').trim().toUpperCase();
    const c = spec.classify(raw);
    if (c === 'battle') {
      out.skipped++;
      continue;
    }
    if (!c) {
      out.issue('error', r.line, `unknown ${spec.what} ${JSON.stringify(raw)}; the chart is skipped`, {
        column: spec.chart.name,
        value: f[spec.chart.at] ?? '',
        title: name,
      });
      continue;
    }
    out.chart(
      { line: r.line, title: name, playStyle: c.style, difficulty: c.d, cell: cellOf(f), block: false },
      spec.chartCols,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// daken counter CSV

/** "SPA", "DPL"… → style and difficulty; "DBx" (battle) → 'battle'; anything else undefined. */
function modeOf(mode: string): { style: PlayStyle; d: Difficulty } | 'battle' | undefined {
  const m = /^(SP|DP|DB)([BNHAL])$/.exec(mode);
  if (!m) return undefined;
  if (m[1] === 'DB') return 'battle';
  return { style: m[1] === 'SP' ? PlayStyle.SP : PlayStyle.DP, d: DIFFICULTY_BY_LETTER[m[2]] };
}

/**
 * daken counter CSV (INFINITAS): LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),
 * Last Played — one chart a row, mode SPx / DPx (DBx = battle, not stored: skipped).
 */
export function parseDakenCounterCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const F = 'daken counter CSV';
  const title = cols.require(F, 'Title');
  const mode = cols.require(F, 'mode');
  const chartCols: ChartColumns = {
    lamp: cols.require(F, 'Lamp'),
    score: cols.require(F, 'Score'),
    miss: cols.find('BP'),
    level: cols.find('LV'),
    lastPlayed: cols.find('Last Played'),
  };
  return oneChartPerRow(t.rows, opts, { title, chart: mode, chartCols, what: 'mode', classify: modeOf }).result(
    'daken_counter',
  );
}

// ---------------------------------------------------------------------------------------------
// result techo CSV

/** A result techo difficulty: "ANOTHER", "SP ANOTHER", "DPA"… (a word alone is SP). */
function techoDifficulty(raw: string): { style: PlayStyle; d: Difficulty } | undefined {
  const code = modeOf(raw);
  if (code && code !== 'battle') return code;
  const m = /^(?:(SP|DP)\s*)?(BEGINNER|NORMAL|HYPER|ANOTHER|LEGGENDARIA)$/.exec(raw);
  if (!m) return undefined;
  return { style: m[1] === 'DP' ? PlayStyle.DP : PlayStyle.SP, d: m[2] as Difficulty };
}

/**
 * result techo CSV (INFINITAS): バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,
 * スコア,ミスカウント,最終プレイ日時 — one chart a row; exports without the バージョン (or genre, artist,
 * level) columns are read the same way.
 */
export function parseResultTechoCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const F = 'result techo CSV';
  const title = cols.require(F, '曲名');
  const difficulty = cols.require(F, '難易度');
  const chartCols: ChartColumns = {
    lamp: cols.require(F, 'クリアタイプ'),
    score: cols.require(F, 'スコア', 'EXスコア'),
    miss: cols.find('ミスカウント', 'BP'),
    level: cols.find('レベル'),
    lastPlayed: cols.find('最終プレイ日時', '最終プレー日時'),
  };
  return oneChartPerRow(t.rows, opts, {
    title,
    chart: difficulty,
    chartCols,
    what: 'difficulty',
    classify: techoDifficulty,
  }).result('result_techo');
}
