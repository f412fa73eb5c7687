/**
 * TotalBPI trend (SVG line chart) from the trend result (src/domain/stats/trend.ts): one point
 * per day / week / month in order (the result has no gaps), y axis with round ticks, a few date
 * labels on the x axis, the last value written at the end of the line.
 */
import type { TrendResult } from '../stats/trend';
import { c, fmt, NO_DATA, niceTicks, PALETTES, svgDocument, text, tickDigits, type ChartOptions } from './svg';

const W = 640;
const H = 320;
const L = 56;
const RM = 64;
const T = 76;
const B = 40;

export function renderTrendSvg(result: Pick<TrendResult, 'points' | 'groupBy'>, opts: ChartOptions = {}): string {
  const theme = opts.theme ?? 'light';
  const p = PALETTES[theme];
  const body: string[] = [];
  const pts = result.points;
  const pw = W - L - RM;
  const ph = H - T - B;
  if (pts.length === 0) {
    body.push(`<rect x="${L}" y="${T}" width="${pw}" height="${ph}" fill="none" stroke="${p.grid}"/>`);
    body.push(text(NO_DATA, { x: L + pw / 2, y: T + ph / 2 + 4, size: 13, fill: p.muted, anchor: 'middle' }));
    return svgDocument(W, H, theme, 'TotalBPI trend: no data', opts, body);
  }
  const values = pts.map((q) => q.totalBpi);
  const ticks = niceTicks(Math.min(...values), Math.max(...values), 5);
  const lo = ticks[0];
  const hi = ticks[ticks.length - 1];
  const digits = tickDigits(ticks);
  const x = (i: number) => L + (pts.length === 1 ? pw / 2 : (i * pw) / (pts.length - 1));
  const y = (v: number) => T + ph - ((v - lo) * ph) / (hi - lo);
  for (const t of ticks) {
    body.push(`<line x1="${L}" y1="${c(y(t))}" x2="${L + pw}" y2="${c(y(t))}" stroke="${p.grid}" stroke-width="1"/>`);
    body.push(text(fmt(t, digits), { x: L - 8, y: y(t) + 4, size: 11, fill: p.muted, anchor: 'end' }));
  }
  body.push(`<line x1="${L}" y1="${T + ph}" x2="${L + pw}" y2="${T + ph}" stroke="${p.axis}" stroke-width="1"/>`);
  // at most 6 date labels, always the first and the last
  const labels = Math.min(6, pts.length);
  const shown = new Set<number>();
  for (let k = 0; k < labels; k++) shown.add(labels === 1 ? 0 : Math.round((k * (pts.length - 1)) / (labels - 1)));
  for (const i of [...shown].sort((a, b) => a - b)) {
    body.push(`<line x1="${c(x(i))}" y1="${T + ph}" x2="${c(x(i))}" y2="${T + ph + 4}" stroke="${p.axis}"/>`);
    body.push(
      text(pts[i].date, {
        x: x(i),
        y: T + ph + 18,
        size: 10,
        fill: p.muted,
        anchor: pts.length === 1 ? 'middle' : i === 0 ? 'start' : i === pts.length - 1 ? 'end' : 'middle',
      }),
    );
  }
  const line = pts.map((q, i) => `${c(x(i))},${c(y(q.totalBpi))}`).join(' ');
  body.push(
    `<polyline points="${line}" fill="none" stroke="${p.accent}" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>`,
  );
  if (pts.length <= 62) {
    pts.forEach((q, i) => {
      if (q.updatedCount > 0) body.push(`<circle cx="${c(x(i))}" cy="${c(y(q.totalBpi))}" r="3" fill="${p.accent}"/>`);
    });
  }
  const last = pts[pts.length - 1];
  body.push(
    `<circle cx="${c(x(pts.length - 1))}" cy="${c(y(last.totalBpi))}" r="4.5" fill="${p.background}" stroke="${p.accent}" stroke-width="2.5"/>`,
  );
  body.push(
    text(fmt(last.totalBpi), {
      x: x(pts.length - 1) + 8,
      y: y(last.totalBpi) + 4,
      size: 13,
      fill: p.text,
      weight: 'bold',
    }),
  );
  body.push(text('総合BPI', { x: L, y: T - 12, size: 11, fill: p.muted }));
  const label = `TotalBPI trend by ${result.groupBy}: ${pts[0].date} ${fmt(pts[0].totalBpi)} to ${last.date} ${fmt(last.totalBpi)}`;
  return svgDocument(W, H, theme, label, opts, body);
}
