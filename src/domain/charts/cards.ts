/**
 * Share cards (docs/portability.md): 1200×630 SVG pictures — the size link previews use — built
 * from plain data (pure, deterministic, every text escaped): a player's profile card (name, total
 * BPI, arena class, radar) and an import batch's card (charts improved, total BPI before → after).
 * The server rasterises them to PNG.
 */
import { VERSION_TITLES, type GameVersion } from '../constants';
import { escapeXml, FONT_STACK, PALETTES, type ChartTheme } from './svg';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** A card's version line: "33 Sparkle Shower" (an unknown version: the bare string). */
export const cardVersionLabel = (v: string) => (v in VERSION_TITLES ? `${v} ${VERSION_TITLES[v as GameVersion]}` : v);

const fmt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toFixed(2));
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(2)}`;

/**
 * Places an SVG document inside another one at (x, y) in a w × h box (its viewBox keeps the
 * aspect ratio, centred): the root element's width and height are replaced.
 */
export function nestSvg(svg: string, x: number, y: number, w: number, h: number): string {
  const start = svg.indexOf('<svg');
  const end = svg.indexOf('>', start);
  if (start < 0 || end < 0) return '';
  const tag = svg
    .slice(start, end)
    .replace(/\s(width|height|x|y)="[^"]*"/g, '')
    .replace('<svg', `<svg x="${x}" y="${y}" width="${w}" height="${h}"`);
  return tag + svg.slice(end);
}

/** An SVG picture framed in a w × h canvas of the theme's background (a chart as a share image). */
export function frameSvg(svg: string, w: number, h: number, theme: ChartTheme): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect x="0" y="0" width="${w}" height="${h}" fill="${PALETTES[theme].background}"/>`,
    nestSvg(svg, 0, 0, w, h),
    '</svg>',
  ].join('');
}

function open(theme: ChartTheme, label: string): string[] {
  const p = PALETTES[theme];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" ` +
      `role="img" aria-label="${escapeXml(label)}" font-family="${escapeXml(FONT_STACK)}">`,
    `<rect x="0" y="0" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${p.background}"/>`,
    `<rect x="0" y="0" width="12" height="${CARD_HEIGHT}" fill="${p.accent}"/>`,
    `<text x="1160" y="600" text-anchor="end" font-size="22" fill="${p.muted}">bpigraph</text>`,
  ];
}

/** A title cut to `max` characters (code points) with an ellipsis. */
const cut = (s: string, max: number) => {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : s;
};

export interface ProfileCardData {
  name: string;
  /** "33 Sparkle Shower" */
  versionLabel: string;
  totalBpi: number | null;
  arenaClass: string | null;
  /** the player's radar as SVG (null: no radar) */
  radarSvg: string | null;
}

export function renderProfileCard(d: ProfileCardData, theme: ChartTheme = 'light'): string {
  const p = PALETTES[theme];
  const out = open(theme, `${d.name}: total BPI ${fmt(d.totalBpi)}`);
  out.push(
    `<text x="64" y="120" font-size="60" font-weight="bold" fill="${p.text}">${escapeXml(cut(d.name, 16))}</text>`,
    `<text x="64" y="170" font-size="26" fill="${p.muted}">${escapeXml(d.versionLabel)}</text>`,
    `<text x="64" y="270" font-size="30" fill="${p.muted}">総合BPI</text>`,
    `<text x="64" y="370" font-size="110" font-weight="bold" fill="${p.accent}">${fmt(d.totalBpi)}</text>`,
    `<text x="64" y="460" font-size="30" fill="${p.muted}">アリーナ</text>`,
    `<text x="64" y="530" font-size="60" font-weight="bold" fill="${p.text}">${escapeXml(d.arenaClass ?? '—')}</text>`,
  );
  if (d.radarSvg) out.push(nestSvg(d.radarSvg, 600, 40, 560, 540));
  out.push('</svg>');
  return out.join('');
}

export interface BatchCardData {
  name: string;
  versionLabel: string;
  /** import time, shown as a JST date */
  importedAt: Date;
  /** null: the player's first batch of the version */
  previousTotalBpi: number | null;
  /** null: not recorded */
  totalBpi: number | null;
  /** plays stored */
  updatedCount: number;
  /** the improved charts, best BPI first (at most 6 are drawn) */
  improved: { title: string; difficulty: string; level: number; exScore: number; bpi: number | null }[];
}

export function renderBatchCard(d: BatchCardData, theme: ChartTheme = 'light'): string {
  const p = PALETTES[theme];
  const before = d.previousTotalBpi;
  const date = new Date(d.importedAt.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
  const out = open(theme, `${d.name}: total BPI ${fmt(before)} → ${fmt(d.totalBpi)}`);
  out.push(
    `<text x="64" y="100" font-size="48" font-weight="bold" fill="${p.text}">${escapeXml(cut(d.name, 20))}</text>`,
    `<text x="64" y="145" font-size="24" fill="${p.muted}">${escapeXml(`${d.versionLabel} · ${date} · ${d.updatedCount} 更新`)}</text>`,
    `<text x="64" y="250" font-size="28" fill="${p.muted}">総合BPI</text>`,
    `<text x="64" y="340" font-size="72" font-weight="bold" fill="${p.text}">${fmt(before)} → ` +
      `<tspan fill="${p.accent}">${fmt(d.totalBpi)}</tspan></text>`,
  );
  if (before !== null && d.totalBpi !== null) {
    out.push(`<text x="64" y="395" font-size="34" fill="${p.accent}">${signed(d.totalBpi - before)}</text>`);
  }
  d.improved.slice(0, 6).forEach((c, i) => {
    const y = 250 + i * 56;
    const label = `${cut(c.title, 22)} [${c.difficulty.charAt(0)}${c.level}]`;
    out.push(
      `<text x="640" y="${y}" font-size="26" fill="${p.text}">${escapeXml(label)}</text>`,
      `<text x="1160" y="${y}" font-size="26" text-anchor="end" fill="${p.accent}">${c.bpi === null ? c.exScore : fmt(c.bpi)}</text>`,
    );
  });
  if (d.improved.length) out.push(`<text x="640" y="195" font-size="24" fill="${p.muted}">更新した譜面</text>`);
  out.push('</svg>');
  return out.join('');
}
