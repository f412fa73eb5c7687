import {
  c,
  escapeXml,
  fmt,
  niceTicks,
  PALETTES,
  renderBpiDistributionSvg,
  renderRadarSvg,
  renderTrendSvg,
  textWidth,
  truncate,
} from '../../src/domain/charts';
import { bpiBuckets } from '../../src/domain/stats';
import * as fx from '../browser/chart-fixtures';

describe('SVG chart renderers: deterministic, escaped, themed (markup; the pictures are checked in test/browser)', () => {
  it('the same input gives the same bytes; no ids, no scripts, no external references', () => {
    for (const render of [
      () => renderRadarSvg(fx.radar, { title: fx.title }),
      () => renderTrendSvg(fx.trend, { theme: 'dark' }),
      () => renderBpiDistributionSvg(fx.distribution),
    ]) {
      const a = render();
      expect(render()).toBe(a);
      expect(a).not.toMatch(/\sid=|<script|href=|url\(/);
      expect(a.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    }
  });

  it('escapes every text: titles with < & " \' never break the document', () => {
    const svg = renderRadarSvg(fx.radar, { title: `<b>"x" & 'y'</b>`, subtitle: '\u0001ok' });
    expect(svg).toContain('&lt;b&gt;&quot;x&quot; &amp; &apos;y&apos;&lt;/b&gt;');
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('\u0001');
    // song titles from the data (drawn under the radar's axes) are escaped too
    expect(
      renderRadarSvg({
        values: fx.radar.values,
        categories: fx.radar.categories.map((k) => ({ ...k, songs: k.songs.map((s) => ({ ...s, title: '<&>' })) })),
      }),
    ).toContain('&lt;&amp;&gt; [');
  });

  it('light and dark differ in the background and text colours; the font stack renders Japanese', () => {
    const light = renderTrendSvg(fx.trend, { theme: 'light' });
    const dark = renderTrendSvg(fx.trend, { theme: 'dark' });
    expect(light).toContain(`fill="${PALETTES.light.background}"`);
    expect(dark).toContain(`fill="${PALETTES.dark.background}"`);
    expect(dark).not.toContain(PALETTES.light.background);
    expect(light).toContain('font-family="&apos;Noto Sans CJK JP&apos;');
  });

  it('draws the numbers of the result: radar values, the last total, the bucket counts', () => {
    const radar = renderRadarSvg(fx.radar);
    for (const v of Object.values(fx.radar.values)) expect(radar).toContain(`>${v.toFixed(2)}</text>`);
    expect(radar).toContain('>冥 [A]</text>'); // the best NOTES song
    const last = fx.trend.points[fx.trend.points.length - 1];
    expect(renderTrendSvg(fx.trend)).toContain(`>${last.totalBpi.toFixed(2)}</text>`);
    const dist = renderBpiDistributionSvg(fx.distribution);
    expect((dist.match(/<rect [^>]*rx="1.5"/g) ?? []).length).toBe(
      fx.distribution.buckets.filter((b) => b.count > 0).length,
    );
  });

  it('empty results say so instead of drawing nothing', () => {
    expect(renderTrendSvg({ points: [], groupBy: 'day' })).toContain('データがありません');
    expect(renderBpiDistributionSvg({ total: 0, buckets: bpiBuckets(10) })).toContain('データがありません');
    const none = { NOTES: -15, CHORD: -15, PEAK: -15, CHARGE: -15, SCRATCH: -15, SOFLAN: -15 };
    expect(renderRadarSvg({ values: none })).toContain('データがありません');
  });

  it('number and coordinate formatting is fixed (never -0)', () => {
    expect(fmt(-0.001)).toBe('0.00');
    expect(fmt(54.886)).toBe('54.89');
    expect(c(-0.04)).toBe('0');
    expect(c(12.345)).toBe('12.3');
    expect(escapeXml(`a<b>&"'`)).toBe('a&lt;b&gt;&amp;&quot;&apos;');
  });

  it('axis ticks are round numbers covering the data', () => {
    expect(niceTicks(13.9, 44.16, 5)).toEqual([10, 20, 30, 40, 50]); // (44.16 − 13.9)/5 = 6.05 → step 10
    expect(niceTicks(0, 3.36, 4)).toEqual([0, 1, 2, 3, 4]); // 0.84 → step 1
    expect(niceTicks(-15, -15, 5)).toEqual([-16, -15.5, -15, -14.5, -14]); // flat data: ±1, step 0.4 → 0.5
  });

  it('text is shortened by display width (a kanji counts 2)', () => {
    expect(textWidth('冥A')).toBe(3);
    expect(truncate('灼熱 Pt.2 Long Train Running', 12)).toBe('灼熱 Pt.2 L…'); // 2+2+1+4+1+1 = 11 units, then …
    expect(truncate('short', 12)).toBe('short');
  });
});
