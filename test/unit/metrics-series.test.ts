/**
 * The request path's metric series (src/metrics.ts): counted through handles, exposed by the
 * registry in prom-client's text format (cumulative buckets, +Inf, _sum, _count).
 */
import { Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram, operationLabel } from '../../src/metrics';

describe('series metrics', () => {
  it('a histogram series: cumulative buckets, sum and count as prom-client writes them', async () => {
    const registry = new Registry();
    const h = new SeriesHistogram<'route'>('t_seconds', 'test histogram', [0.01, 0.1, 1], registry);
    const s = h.series({ route: '/a' });
    expect(h.series({ route: '/a' })).toBe(s); // one handle per label set
    for (const v of [0.005, 0.01, 0.05, 2]) s.observe(v);
    const text = await registry.metrics();
    // le=0.01: 0.005 and 0.01 (bounds are inclusive) → 2; le=0.1: + 0.05 → 3; le=1: 3; +Inf: 4
    // sum 0.005 + 0.01 + 0.05 + 2 = 2.065
    expect(text).toContain('t_seconds_bucket{le="0.01",route="/a"} 2\n');
    expect(text).toContain('t_seconds_bucket{le="0.1",route="/a"} 3\n');
    expect(text).toContain('t_seconds_bucket{le="1",route="/a"} 3\n');
    expect(text).toContain('t_seconds_bucket{le="+Inf",route="/a"} 4\n');
    expect(text).toContain('t_seconds_sum{route="/a"} 2.065\n');
    expect(text).toContain('t_seconds_count{route="/a"} 4');
    expect(text).toContain('# TYPE t_seconds histogram');
  });

  it('a counter series per label set', async () => {
    const registry = new Registry();
    const c = new SeriesCounter<'kind' | 'status'>('t_total', 'test counter', registry);
    c.series({ kind: 'rest', status: '200' }).value += 2;
    c.series({ kind: 'rest', status: '200' }).value++;
    c.series({ kind: 'rest', status: '400' }).value++;
    const text = await registry.metrics();
    expect(text).toContain('# TYPE t_total counter');
    expect(text).toContain('t_total{kind="rest",status="200"} 3\n');
    expect(text).toContain('t_total{kind="rest",status="400"} 1');
  });

  it('operation labels: the name, the first operation of the document (remembered), anonymous', () => {
    expect(operationLabel('Calc', '{ a }')).toBe('Calc');
    const doc = '# comment\nquery Named($x: Int) { a }';
    expect(operationLabel(undefined, doc)).toBe('Named');
    expect(operationLabel(null, doc)).toBe('Named'); // the second time from the memo
    expect(operationLabel(undefined, '{ a }')).toBe('anonymous');
    expect(operationLabel(undefined, 'query($t: String!) { a }')).toBe('anonymous');
  });
});
