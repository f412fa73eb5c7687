/**
 * BPI distribution (SVG histogram) from the distribution result
 * (src/domain/stats/bpi-distribution.ts; any Histogram of src/domain/stats renders the same way:
 * DJ ranks, score rates): one bar per bucket, counts over the bars when they fit, bucket labels
 * under them (every k-th when there are many).
 */
import type { Histogram } from '../stats/common';
import { c, NO_DATA, niceTicks, PALETTES, svgDocument, text, type ChartOptions } from './svg';

const W = 640;
const H = 320;
const L = 48;
const RM = 16;
const T = 76;
const B = 40;

export function renderDistributionSvg(h: Histogram, opts: ChartOptions & { axisLabel?: string } = {}): string {
  const theme = opts.theme ?? 'light';
  const p = PALETTES[theme];
  const body: string[] = [];
  const pw = W - L - RM;
  const ph = H - T - B;
  const n = h.buckets.length;
  const max = Math.max(0, ...h.buckets.map((b) => b.count));
  // headroom over the tallest bar for its count label
  const ticks = niceTicks(0, Math.max(1, max * 1.12), 4).filter((t) => Number.isInteger(t));
  const top = ticks[ticks.length - 1];
  const y = (v: number) => T + ph - (v * ph) / top;
  for (const t of ticks) {
    body.push(`<line x1="${L}" y1="${c(y(t))}" x2="${L + pw}" y2="${c(y(t))}" stroke="${p.grid}" stroke-width="1"/>`);
    body.push(text(String(t), { x: L - 8, y: y(t) + 4, size: 11, fill: p.muted, anchor: 'end' }));
  }
  const slot = pw / Math.max(1, n);
  const gap = Math.min(4, slot * 0.2);
  const every = Math.max(1, Math.ceil(n / 16));
  h.buckets.forEach((b, i) => {
    const x0 = L + i * slot + gap / 2;
    if (b.count > 0) {
      body.push(
        `<rect x="${c(x0)}" y="${c(y(b.count))}" width="${c(slot - gap)}" height="${c(T + ph - y(b.count))}" fill="${p.accent}" rx="1.5"/>`,
      );
      if (n <= 24)
        body.push(
          text(String(b.count), {
            x: x0 + (slot - gap) / 2,
            y: y(b.count) - 4,
            size: 10,
            fill: p.text,
            anchor: 'middle',
          }),
        );
    }
    if (i % every === 0 || i === n - 1)
      body.push(text(b.label, { x: x0 + (slot - gap) / 2, y: T + ph + 16, size: 10, fill: p.muted, anchor: 'middle' }));
  });
  body.push(`<line x1="${L}" y1="${T + ph}" x2="${L + pw}" y2="${T + ph}" stroke="${p.axis}" stroke-width="1"/>`);
  if (h.total === 0)
    body.push(text(NO_DATA, { x: L + pw / 2, y: T + ph / 2, size: 13, fill: p.muted, anchor: 'middle' }));
  body.push(text(opts.axisLabel ?? '譜面数 (charts)', { x: L, y: T - 12, size: 11, fill: p.muted }));
  const label = `Distribution of ${h.total} charts: ${h.buckets
    .filter((b) => b.count > 0)
    .map((b) => `${b.label} ${b.count}`)
    .join(', ')}`;
  return svgDocument(W, H, theme, label, opts, body);
}

/** The BPI distribution chart (the distribution renderer with the BPI axis wording). */
export function renderBpiDistributionSvg(h: Histogram, opts: ChartOptions = {}): string {
  return renderDistributionSvg(h, { ...opts, axisLabel: '譜面数 / 単曲BPI (charts by BPI)' });
}
