import { RunningTotalBpi, totalBpi } from '../../src/domain/bpi';

describe('RunningTotalBpi: totalBpi kept up to date one chart at a time', () => {
  it('N = 2 (K = max(1, log2 2) = 1: the plain mean, missing charts at −15)', () => {
    const t = new RunningTotalBpi(2);
    expect(t.total()).toBe(-15); // both missing: (−15 − 15) / 2
    t.set(101, 50);
    expect(t.total()).toBe(17.5); // (50 − 15) / 2
    t.set(102, 30);
    expect(t.total()).toBe(40); // (50 + 30) / 2
    t.set(101, 10); // a chart's BPI replaced, not added
    expect(t.total()).toBe(20); // (10 + 30) / 2
    expect(t.playedCount).toBe(2);
  });

  it('N = 4 (K = 2): −sqrt((10² − 3·15²) / 4)… signed', () => {
    const t = new RunningTotalBpi(4);
    t.set(1, 10);
    // (100 − 3·225) / 4 = −143.75 → −sqrt(143.75) = −11.9896… → −11.99
    expect(t.total()).toBe(-11.99);
    t.set(2, 20);
    t.set(3, 30);
    t.set(4, 40);
    // (100 + 400 + 900 + 1600) / 4 = 750 → sqrt(750) = 27.386… → 27.39
    expect(t.total()).toBe(27.39);
  });

  it('agrees with totalBpi after every step of a replay over a realistic set (N = 600, K ≈ 9.23)', () => {
    const n = 600;
    const t = new RunningTotalBpi(n);
    const best = new Map<number, number>();
    let x = 12345;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let step = 0; step < 3000; step++) {
      const chart = Math.floor(rnd() * n);
      const bpi = Math.round((rnd() * 115 - 15) * 100) / 100;
      if ((best.get(chart) ?? -Infinity) >= bpi) continue;
      best.set(chart, bpi);
      t.set(chart, bpi);
      if (step % 50 === 0) expect(t.total()).toBe(totalBpi([...best.values()], n));
    }
    expect(t.total()).toBe(totalBpi([...best.values()], n));
  });

  it('refuses more distinct charts than N', () => {
    const t = new RunningTotalBpi(1);
    t.set(1, 5);
    expect(() => t.set(2, 5)).toThrow('more than 1 charts');
  });
});
