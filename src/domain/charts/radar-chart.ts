/**
 * Radar chart (SVG) of a player's six category values, from the same result as the JSON
 * (src/domain/stats/radar.ts radarWithSongs, or bare RadarValues): a hexagon per value ring
 * (0, 25, 50, 75, 100; the centre is −15), the player's polygon, and per axis the category, its
 * value and the player's best song of the category (Japanese titles, shortened to fit).
 */
import { RADAR_CATEGORIES } from '../constants';
import type { RadarValues } from '../radar';
import type { RadarCategoryResult } from '../stats/radar';
import { c, CATEGORY_COLORS, fmt, NO_DATA, PALETTES, svgDocument, text, truncate, type ChartOptions } from './svg';

export interface RadarChartInput {
  values: RadarValues;
  categories?: readonly RadarCategoryResult[];
}

const W = 560;
const H = 440;
const CX = 280;
const CY = 250;
const R = 128;
const RINGS = [0, 25, 50, 75, 100];

/** Radius of a value: −15 at the centre, 100 on the outer ring, up to 110 drawn. */
const radius = (v: number) => (R * (Math.min(110, Math.max(-15, v)) + 15)) / 115;
const angle = (i: number) => (-90 + i * 60) * (Math.PI / 180);
const at = (i: number, r: number) => [CX + r * Math.cos(angle(i)), CY + r * Math.sin(angle(i))] as const;

export function renderRadarSvg(input: RadarChartInput, opts: ChartOptions = {}): string {
  const theme = opts.theme ?? 'light';
  const p = PALETTES[theme];
  const body: string[] = [];
  for (const ring of RINGS) {
    const pts = RADAR_CATEGORIES.map((_, i) => at(i, radius(ring)).map(c).join(',')).join(' ');
    body.push(`<polygon points="${pts}" fill="none" stroke="${p.grid}" stroke-width="${ring === 100 ? 1.5 : 1}"/>`);
    body.push(text(String(ring), { x: CX + 4, y: CY - radius(ring) + 11, size: 9, fill: p.muted }));
  }
  RADAR_CATEGORIES.forEach((_, i) => {
    const [x, y] = at(i, R);
    body.push(`<line x1="${c(CX)}" y1="${c(CY)}" x2="${c(x)}" y2="${c(y)}" stroke="${p.axis}" stroke-width="1"/>`);
  });
  const played = input.categories
    ? input.categories.some((k) => k.playedCount > 0)
    : RADAR_CATEGORIES.some((k) => input.values[k] > -15);
  if (played) {
    const pts = RADAR_CATEGORIES.map((k, i) => at(i, radius(input.values[k])).map(c).join(',')).join(' ');
    body.push(
      `<polygon points="${pts}" fill="${p.accentFill}" stroke="${p.accent}" stroke-width="2" stroke-linejoin="round"/>`,
    );
    RADAR_CATEGORIES.forEach((k, i) => {
      const [x, y] = at(i, radius(input.values[k]));
      body.push(
        `<circle cx="${c(x)}" cy="${c(y)}" r="4" fill="${CATEGORY_COLORS[k]}" stroke="${p.background}" stroke-width="1.5"/>`,
      );
    });
  } else {
    body.push(text(NO_DATA, { x: CX, y: CY + 4, size: 13, fill: p.muted, anchor: 'middle' }));
  }
  RADAR_CATEGORIES.forEach((k, i) => {
    const [x, y] = at(i, R + 20);
    const cos = Math.cos(angle(i));
    const anchor = Math.abs(cos) < 0.1 ? 'middle' : cos > 0 ? 'start' : 'end';
    const top = Math.sin(angle(i)) < -0.9;
    const y0 = top ? y - 30 : Math.sin(angle(i)) > 0.9 ? y + 4 : y - 8;
    const best = input.categories?.find((r) => r.category === k)?.songs.find((s) => s.exScore !== null);
    body.push(
      `<rect x="${c(anchor === 'end' ? x - 10 : anchor === 'middle' ? x - 44 : x)}" y="${c(y0 - 9)}" width="8" height="8" rx="2" fill="${CATEGORY_COLORS[k]}"/>`,
    );
    const lx = anchor === 'end' ? x - 14 : anchor === 'middle' ? x - 32 : x + 12;
    body.push(
      text(k, { x: lx, y: y0, size: 12, fill: p.text, weight: 'bold', anchor: anchor === 'middle' ? 'start' : anchor }),
    );
    body.push(
      text(fmt(input.values[k]), { x: anchor === 'middle' ? x : lx, y: y0 + 15, size: 13, fill: p.text, anchor }),
    );
    if (best)
      body.push(
        text(truncate(`${best.title} [${best.difficulty.charAt(0)}]`, 24), {
          x: anchor === 'middle' ? x : lx,
          y: y0 + 29,
          size: 10,
          fill: p.muted,
          anchor,
        }),
      );
  });
  const label = `Radar: ${RADAR_CATEGORIES.map((k) => `${k} ${fmt(input.values[k])}`).join(', ')}`;
  return svgDocument(W, H, theme, label, opts, body);
}
