/**
 * SVG building blocks shared by the chart renderers (radar, TotalBPI trend, BPI distribution).
 * Pure and deterministic: the same input gives byte-identical output (no ids, no randomness, no
 * clock, fixed number formatting), every text is XML-escaped.
 *
 * Text uses one font stack that renders Japanese song titles: Noto Sans CJK JP (Debian
 * `fonts-noto-cjk`, installed next to Chromium by .ci/run), then the usual Japanese system fonts
 * of macOS / Windows / other Linux set-ups, then DejaVu Sans and the generic sans-serif.
 */

export type ChartTheme = 'light' | 'dark';
export const FONT_STACK =
  "'Noto Sans CJK JP', 'Noto Sans JP', 'Hiragino Kaku Gothic ProN', 'Hiragino Sans', 'Yu Gothic', Meiryo, 'IPAexGothic', 'DejaVu Sans', sans-serif";

export interface Palette {
  background: string;
  text: string;
  muted: string;
  grid: string;
  axis: string;
  accent: string;
  accentFill: string;
}

export const PALETTES: Record<ChartTheme, Palette> = {
  light: {
    background: '#ffffff',
    text: '#111827',
    muted: '#4b5563',
    grid: '#e5e7eb',
    axis: '#9ca3af',
    accent: '#2563eb',
    accentFill: '#2563eb33',
  },
  dark: {
    background: '#111827',
    text: '#f9fafb',
    muted: '#d1d5db',
    grid: '#374151',
    axis: '#6b7280',
    accent: '#60a5fa',
    accentFill: '#60a5fa40',
  },
};

/** The reference UI's radar category colours. */
export const CATEGORY_COLORS: Record<string, string> = {
  NOTES: '#60a5fa',
  CHORD: '#f472b6',
  PEAK: '#fb923c',
  CHARGE: '#4ade80',
  SCRATCH: '#a78bfa',
  SOFLAN: '#facc15',
};

export interface ChartOptions {
  theme?: ChartTheme;
  /** heading drawn at the top left (e.g. the player's name); escaped */
  title?: string;
  /** smaller line under the heading (e.g. version and filters); escaped */
  subtitle?: string;
}

/** XML-escapes text and attribute values (& < > " '); drops characters XML 1.0 forbids. */
export function escapeXml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A coordinate: rounded to 0.1, never "-0". */
export function c(x: number): string {
  const r = Math.round(x * 10) / 10;
  return (r === 0 ? 0 : r).toString();
}

/** A number shown to people: fixed decimals, never "-0.00". */
export function fmt(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/** Display width in half-width units: East Asian wide and full-width characters count 2. */
export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s)
    w +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u.test(
        ch,
      )
        ? 2
        : 1;
  return w;
}

/** Cuts text to at most `max` half-width units, ending with "…" when cut. */
export function truncate(s: string, max: number): string {
  if (textWidth(s) <= max) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = textWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

export interface TextAttrs {
  x: number;
  y: number;
  size?: number;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  weight?: 'normal' | 'bold';
}

export function text(t: string, a: TextAttrs): string {
  const parts = [`x="${c(a.x)}"`, `y="${c(a.y)}"`, `font-size="${a.size ?? 12}"`, `fill="${a.fill}"`];
  if (a.anchor && a.anchor !== 'start') parts.push(`text-anchor="${a.anchor}"`);
  if (a.weight === 'bold') parts.push('font-weight="bold"');
  return `<text ${parts.join(' ')}>${escapeXml(t)}</text>`;
}

/** The whole document: background, heading, body. `label` is the accessible name. */
export function svgDocument(
  width: number,
  height: number,
  theme: ChartTheme,
  label: string,
  opts: ChartOptions,
  body: string[],
): string {
  const p = PALETTES[theme];
  const head: string[] = [];
  if (opts.title)
    head.push(
      text(truncate(opts.title, Math.floor(width / 8)), { x: 16, y: 26, size: 16, fill: p.text, weight: 'bold' }),
    );
  if (opts.subtitle)
    head.push(
      text(truncate(opts.subtitle, Math.floor(width / 6.5)), {
        x: 16,
        y: opts.title ? 44 : 26,
        size: 11,
        fill: p.muted,
      }),
    );
  return (
    [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(label)}" font-family="${escapeXml(FONT_STACK)}">`,
      `<rect x="0" y="0" width="${width}" height="${height}" fill="${p.background}"/>`,
      ...head,
      ...body,
      '</svg>',
    ].join('\n') + '\n'
  );
}

/**
 * "Nice" axis ticks covering [min, max]: a step of 1, 2 or 5 × 10^k giving about `count`
 * intervals; returns the ticks (first ≤ min, last ≥ max).
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max - min < 1e-9) {
    min -= 1;
    max += 1;
  }
  const raw = (max - min) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const norm = raw / mag;
  const step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
  const lo = Math.floor(min / step + 1e-9) * step;
  const hi = Math.ceil(max / step - 1e-9) * step;
  const out: number[] = [];
  for (let k = 0; lo + k * step <= hi + step * 1e-9; k++) out.push(Math.round((lo + k * step) * 1e6) / 1e6);
  return out;
}

/** Decimals needed to show ticks of this step without noise. */
export function tickDigits(ticks: readonly number[]): number {
  if (ticks.length < 2) return 0;
  const step = Math.abs(ticks[1] - ticks[0]);
  return step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step) - 1e-9));
}

export const NO_DATA = 'データがありません (no data)';
