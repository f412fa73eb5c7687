import { Difficulty, PlayStyle } from '../constants';
import {
  Collector,
  Columns,
  DIFFICULTIES,
  type ChartCells,
  type ChartColumns,
  type Col,
  type ParseOptions,
} from './collector';
import { readTable, type TextRow } from './text';
import { CsvFormatError, type ParseResult } from './types';

/**
 * The official e-amusement score CSV: current (41 columns, BEGINNER…LEGGENDARIA) or older layout
 * (27 columns, NORMAL…ANOTHER), "スコア" or "EXスコア" headers. The file does not name its play
 * style (it is downloaded per style): `officialPlayStyle`, default SP.
 */
export function parseOfficialCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const title = cols.find('タイトル');
  if (!title) throw new CsvFormatError('Not an official score CSV: no タイトル column');
  const lastPlayed = cols.find('最終プレー日時', '最終プレイ日時');
  const genre = cols.find('ジャンル');
  const artist = cols.find('アーティスト');
  const groups = DIFFICULTIES.flatMap((d) => {
    const lamp = cols.find(`${d} クリアタイプ`);
    if (!lamp) return [];
    const score = cols.find(`${d} スコア`, `${d} EXスコア`);
    if (!score) throw new CsvFormatError(`Column "${d} スコア" is missing`);
    const judgements = { pgreat: cols.find(`${d} PGreat`), great: cols.find(`${d} Great`) };
    return [
      {
        d,
        cols: {
          lamp,
          score,
          miss: cols.find(`${d} ミスカウント`),
          level: cols.find(`${d} 難易度`),
          lastPlayed,
          ...judgements,
        } satisfies ChartColumns,
      },
    ];
  });
  if (groups.length === 0)
    throw new CsvFormatError('Not an official score CSV: no "<DIFFICULTY> クリアタイプ" columns');
  // The free-text columns (title, genre, artist) are written unquoted: a comma in one of them
  // shifts the row. The columns after them are read from the right, the title repaired.
  let textEnd = title.at + 1;
  while (textEnd < t.header.length && (t.header[textEnd] === 'ジャンル' || t.header[textEnd] === 'アーティスト'))
    textEnd++;
  const width = t.header.length;
  const style = opts.officialPlayStyle ?? PlayStyle.SP;
  const out = new Collector(opts);
  for (const r of t.rows) {
    const row = officialRow(r, width, title.at, textEnd, opts.knownTitle);
    if ('problem' in row) {
      out.issue('error', r.line, row.problem);
      continue;
    }
    if (!row.title) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: 'タイトル', value: '' });
      continue;
    }
    const shift = row.shift;
    const cell = (c: Col) => (c ? r.fields[c.at >= textEnd ? c.at + shift : c.at] : undefined);
    const text = (c: Col) => (c && row.textAligned ? r.fields[c.at + shift]?.trim() : undefined);
    const chart: ChartCells = {
      line: r.line,
      title: row.title,
      playStyle: style,
      difficulty: Difficulty.BEGINNER,
      cell,
      block: true,
      genre: text(genre),
      artist: text(artist),
    };
    for (const { d, cols: cc } of groups) {
      chart.difficulty = d;
      out.chart(chart, cc);
    }
  }
  return out.result('official');
}

/**
 * The title of an official row and how far its later columns are shifted by unquoted commas in
 * the free-text columns [titleAt, textEnd). With more fields than the header, the split of the
 * free text giving a known title is taken (longest first); the title alone in the free text is
 * unambiguous. `textAligned`: genre and artist are where the header says, after the title.
 */
function officialRow(
  r: TextRow,
  width: number,
  titleAt: number,
  textEnd: number,
  known: ((title: string) => boolean) | undefined,
): { title: string; shift: number; textAligned: boolean } | { problem: () => string } {
  let n = r.fields.length;
  while (n > width && r.fields[n - 1].trim() === '') n--; // trailing separators
  if (n === width) return { title: r.fields[titleAt].trim(), shift: 0, textAligned: true };
  if (n < width) return { problem: () => `expected ${width} fields, found ${r.fields.length}; the line is skipped` };
  const extra = n - width;
  const candidate = (j: number) =>
    r.fields
      .slice(titleAt, titleAt + 1 + j)
      .join(',')
      .trim();
  if (textEnd === titleAt + 1) return { title: candidate(extra), shift: extra, textAligned: true };
  if (known) {
    for (let j = extra; j >= 0; j--) {
      const t = candidate(j);
      if (known(t)) return { title: t, shift: extra, textAligned: j === extra };
    }
  }
  return {
    problem: () =>
      `expected ${width} fields, found ${r.fields.length}: the title, genre or artist holds an unquoted comma and no split of them names a known title; the line is skipped`,
  };
}
