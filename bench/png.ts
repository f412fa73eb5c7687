/**
 * PNG rendering cost (src/rest/png.ts, @resvg/resvg-js): one 1200×630 profile card rasterised
 * with the fonts the server gives resvg (Noto Sans CJK Regular + Bold + DejaVu), with Regular
 * only, and with DejaVu only (no CJK: Japanese text missing), N renders each, median ms and the
 * ratios within this run; plus a cached repeat (the ETag cache: no render). Run:
 * `npm run bench:png` (PNG_BENCH_N, default 5).
 */
import os from 'node:os';
import { renderProfileCard } from '../src/domain/charts';
import { DEFAULT_FONT_FILES, pngEtag, pngFor, renderPng } from '../src/rest/png';

const N = Number(process.env.PNG_BENCH_N ?? 5);
const radar =
  '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480"><circle cx="240" cy="240" r="180" fill="#2563eb33" stroke="#2563eb"/><text x="240" y="40" text-anchor="middle" font-size="24">ノーツ</text></svg>';
const svg = renderProfileCard({
  name: 'ベンチ太郎',
  versionLabel: '33 Sparkle Shower',
  totalBpi: 42.17,
  arenaClass: 'A3',
  radarSvg: radar,
});

function median(fontFiles: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    renderPng({ svg, width: 1200, fontFiles });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(N / 2)];
}

async function main() {
  const [regular, bold, dejavu] = DEFAULT_FONT_FILES;
  const all = median(DEFAULT_FONT_FILES);
  const regularOnly = median([regular, dejavu]);
  const latinOnly = median([dejavu]);
  const etag = pngEtag(svg, 1200, 630);
  await pngFor(svg, 1200, etag);
  const t = process.hrtime.bigint();
  for (let i = 0; i < 1000; i++) await pngFor(svg, 1200, etag);
  const cached = Number(process.hrtime.bigint() - t) / 1e6 / 1000;
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${N} renders each (median ms)`,
  );
  console.log(`Noto CJK Regular+Bold+DejaVu: ${all.toFixed(0)} ms (1.00)`);
  console.log(`Noto CJK Regular+DejaVu:      ${regularOnly.toFixed(0)} ms (${(regularOnly / all).toFixed(2)})`);
  console.log(`DejaVu only (no Japanese):    ${latinOnly.toFixed(0)} ms (${(latinOnly / all).toFixed(2)})`);
  console.log(`cached (ETag hit):            ${cached.toFixed(4)} ms (${(cached / all).toExponential(1)})`);
  void bold;
}

void main();
