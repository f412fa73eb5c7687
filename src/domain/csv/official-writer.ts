/**
 * The official e-amusement score CSV, written (pure): the current layout (41 columns, BEGINNER …
 * LEGGENDARIA blocks of 難易度, スコア, PGreat, Great, ミスカウント, クリアタイプ, DJ LEVEL), one line
 * per song, so that this server's importer (and other trackers reading official CSVs) take it
 * back. docs/portability.md.
 */
import { ClearLamp, Difficulty, LAMP_LABEL } from '../constants';

const BLOCKS: readonly Difficulty[] = [
  Difficulty.BEGINNER,
  Difficulty.NORMAL,
  Difficulty.HYPER,
  Difficulty.ANOTHER,
  Difficulty.LEGGENDARIA,
];

export const OFFICIAL_HEADER = [
  'バージョン',
  'タイトル',
  'ジャンル',
  'アーティスト',
  'プレー回数',
  ...BLOCKS.flatMap((d) => [
    `${d} 難易度`,
    `${d} スコア`,
    `${d} PGreat`,
    `${d} Great`,
    `${d} ミスカウント`,
    `${d} クリアタイプ`,
    `${d} DJ LEVEL`,
  ]),
  '最終プレー日時',
].join(',');

/** One chart's best in an official line. */
export interface OfficialCell {
  level: number;
  /** 0 = unknown */
  notes: number;
  exScore: number;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  pgreat: number | null;
  great: number | null;
  playedAt: Date;
}

export interface OfficialSong {
  title: string;
  /** the song's version label ("33 Sparkle Shower"), '' when unknown */
  version: string;
  genre?: string | null;
  artist?: string | null;
  charts: ReadonlyMap<Difficulty, OfficialCell>;
}

const GRADES = ['F', 'F', 'E', 'D', 'C', 'B', 'A', 'AA', 'AAA'];

/**
 * DJ LEVEL of an EX score: the highest k with ex ≥ ceil(max × k / 9) (E = 2/9 … AAA = 8/9), i.e.
 * k = floor(9 × ex / max) for integers; '---' when the maximum is unknown.
 */
export function djLevel(exScore: number, maxEx: number): string {
  if (maxEx <= 0) return '---';
  return GRADES[Math.max(0, Math.min(8, Math.floor((9 * exScore) / maxEx)))];
}

/** A field quoted when it holds a comma, a quote or a line break (the importer reads quoted fields). */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Unix time → JST wall clock "YYYY-MM-DD HH:mm" (the official file's format). */
export function officialTime(at: Date): string {
  return new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** One song's line (no line break): unplayed difficulties as the official file writes absent charts. */
export function officialLine(song: OfficialSong): string {
  let last = 0;
  const blocks: string[] = [];
  for (const d of BLOCKS) {
    const c = song.charts.get(d);
    if (!c) {
      blocks.push('0,0,0,0,---,NO PLAY,---');
      continue;
    }
    last = Math.max(last, c.playedAt.getTime());
    const lamp = LAMP_LABEL[c.clearLamp ?? ClearLamp.NO_PLAY];
    blocks.push(
      [
        c.level,
        c.exScore,
        c.pgreat ?? 0,
        c.great ?? 0,
        c.missCount ?? '---',
        lamp,
        djLevel(c.exScore, c.notes * 2),
      ].join(','),
    );
  }
  const head = [song.version, song.title, song.genre ?? '', song.artist ?? ''].map(csvField).join(',');
  return `${head},0,${blocks.join(',')},${last ? officialTime(new Date(last)) : ''}`;
}
