import {
  calcBpiV2,
  fitBpiV2,
  generatePopulation,
  ScoreMatrixBuilder,
  totalBpiV2,
  type BpiV2Fit,
  type FitProgress,
  type GeneratedPopulation,
  type ScoreMatrix,
} from '../../src/domain/bpi-v2';
import { spearman } from '../../src/domain/bpi-v2/stats';

/**
 * The model is defined up to θ → a + bθ; the fit pins θ to mean 0 / sd 1 over the players it fits.
 * The true parameters in the same normalisation: with the true skills' mean a and sd b over those
 * players, θ* = (θ − a)/b, mu* = mu + sigma·a, sigma* = sigma·b (predictions unchanged).
 */
function alignTruth(pop: GeneratedPopulation, fit: BpiV2Fit) {
  let n = 0;
  let s = 0;
  for (let i = 0; i < fit.skill.length; i++)
    if (Number.isFinite(fit.skill[i])) {
      n++;
      s += pop.truth.skill[i];
    }
  const a = s / n;
  let ss = 0;
  for (let i = 0; i < fit.skill.length; i++) if (Number.isFinite(fit.skill[i])) ss += (pop.truth.skill[i] - a) ** 2;
  const b = Math.sqrt(ss / n);
  return {
    mu: (j: number) => pop.truth.mu[j] + pop.truth.sigma[j] * a,
    sigma: (j: number) => pop.truth.sigma[j] * b,
    skill: (i: number) => (pop.truth.skill[i] - a) / b,
    kaidenSkill: (pop.truth.kaidenSkill - a) / b,
  };
}

/** Fitted players per chart, counted from the matrix (for the minimum-player rule). */
function fittedPlayersPerChart(m: ScoreMatrix, fit: BpiV2Fit): number[] {
  const count = new Array(m.charts).fill(0);
  for (let i = 0; i < m.players; i++) {
    if (!Number.isFinite(fit.skill[i])) continue;
    for (let k = m.rowPtr[i]; k < m.rowPtr[i + 1]; k++) count[m.chart[k]]++;
  }
  return count;
}

describe('BPI V2 fit on a generated population with known parameters', () => {
  // 2,000 players × 120 charts, about half of each player's charts played (stronger players more hard
  // charts), 3 % outlying bests; the last 12 charts are played by ~5 … 100 players each.
  const pop = generatePopulation({ players: 2000, charts: 120, seed: 7, sparseCharts: 12 });
  const fit = fitBpiV2(pop.matrix, pop.charts);
  const truth = alignTruth(pop, fit);
  const fitted = fit.charts.map((c, j) => ({ c, j })).filter((x) => x.c !== null) as {
    c: NonNullable<BpiV2Fit['charts'][number]>;
    j: number;
  }[];

  it('converges and fits the players with enough charts', () => {
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(100);
    expect(fit.players).toBeGreaterThan(1900);
    expect(pop.matrix.chart.length).toBeGreaterThan(80_000);
  });

  it('gives parameters exactly to the charts with at least 30 fitted players', () => {
    const count = fittedPlayersPerChart(pop.matrix, fit);
    for (let j = 0; j < 120; j++) expect([j, fit.charts[j] !== null]).toEqual([j, count[j] >= 30]);
    // the sparse tail has both kinds
    const tail = fit.charts.slice(108);
    expect(tail.some((c) => c === null)).toBe(true);
    expect(tail.some((c) => c !== null)).toBe(true);
    for (const { c, j } of fitted) expect(c.players).toBe(count[j]);
  });

  // Tolerances from the standard errors (README): a chart with n players has SE(mu) ≈ omega/√n and
  // SE(sigma)/sigma ≈ (omega/sigma)/(sd θ·√n); here omega/sigma ≤ 0.55 and most charts have ~900 players
  // (SE(mu) ≈ 0.007, SE(sigma) ≈ 2 %), the sparse ones 30–100.
  it('recovers mu within 0.02 and sigma within 3 % on average (mean absolute error)', () => {
    const maeMu = fitted.reduce((s, { c, j }) => s + Math.abs(c.mu - truth.mu(j)), 0) / fitted.length;
    const maeSigma = fitted.reduce((s, { c, j }) => s + Math.abs(c.sigma / truth.sigma(j) - 1), 0) / fitted.length;
    expect(maeMu).toBeLessThan(0.02);
    expect(maeSigma).toBeLessThan(0.03);
  });

  it('recovers every chart with ≥ 500 players within 4 standard errors: |Δmu| ≤ 0.04, |Δsigma| ≤ 8 %', () => {
    const big = fitted.filter(({ c }) => c.players >= 500);
    expect(big.length).toBeGreaterThan(90);
    for (const { c, j } of big) {
      expect([j, Math.abs(c.mu - truth.mu(j)) <= 0.04]).toEqual([j, true]);
      expect([j, Math.abs(c.sigma / truth.sigma(j) - 1) <= 0.08]).toEqual([j, true]);
    }
  });

  it('reports standard errors that cover the truth (≥ 85 % within 2 SE; nominal 95 %)', () => {
    const coverMu = fitted.filter(({ c, j }) => Math.abs(c.mu - truth.mu(j)) <= 2 * c.seMu).length / fitted.length;
    const coverSigma =
      fitted.filter(({ c, j }) => Math.abs(c.sigma - truth.sigma(j)) <= 2 * c.seSigma).length / fitted.length;
    expect(coverMu).toBeGreaterThanOrEqual(0.85);
    expect(coverSigma).toBeGreaterThanOrEqual(0.85);
  });

  it('recovers the players’ skills in rank order (Spearman ≥ 0.95) and scale (RMSE ≤ 0.15)', () => {
    const est: number[] = [];
    const tru: number[] = [];
    for (let i = 0; i < 2000; i++) {
      if (!Number.isFinite(fit.skill[i])) continue;
      est.push(fit.skill[i]);
      tru.push(truth.skill(i));
    }
    expect(spearman(est, tru)).toBeGreaterThanOrEqual(0.95);
    const rmse = Math.sqrt(est.reduce((s, x, q) => s + (x - tru[q]) ** 2, 0) / est.length);
    expect(rmse).toBeLessThanOrEqual(0.15);
  });

  it('puts BPI 0 at the kaiden-average level and 100 at each chart’s world record', () => {
    // z0 = median z of the charts' kaiden averages; they were generated at the true kaiden skill ± 0.1
    expect(fit.anchors.z0Source).toBe('kaidenAverage');
    expect(Math.abs(fit.anchors.z0 - truth.kaidenSkill)).toBeLessThan(0.05);
    const atKaiden: number[] = [];
    for (const { c, j } of fitted) {
      const def = pop.charts[j];
      atKaiden.push(calcBpiV2(def.kaidenAvg!, def.notes, c.params)!);
      if (c.wrAnchored) expect(calcBpiV2(def.wr!, def.notes, c.params)).toBe(100);
    }
    atKaiden.sort((x, y) => x - y);
    expect(Math.abs(atKaiden[atKaiden.length >> 1])).toBeLessThan(1); // median BPI of the kaiden averages ≈ 0
    // about 5 % of the generated WRs sit 2 skill units beyond the others: their exponent is corrected
    expect(fitted.filter(({ c }) => c.params.gamma < 1).length).toBeGreaterThan(0);
    expect(fitted.filter(({ c }) => c.params.gamma === 1).length).toBeGreaterThan(fitted.length * 0.8);
  });

  it('is deterministic', () => {
    const again = fitBpiV2(pop.matrix, pop.charts);
    expect(again.charts).toEqual(fit.charts);
    expect(Array.from(again.skill)).toEqual(Array.from(fit.skill));
  });
});

describe('BPI V2 fit: robustness, progress, a hand-worked case, bad input', () => {
  it('is pulled less by outlying bests than plain least squares (8 % outliers)', () => {
    const pop = generatePopulation({ players: 1500, charts: 60, seed: 11, outlierRate: 0.08 });
    const maeMu = (fit: BpiV2Fit) => {
      const truth = alignTruth(pop, fit);
      let s = 0;
      let n = 0;
      fit.charts.forEach((c, j) => c && (n++, (s += Math.abs(c.mu - truth.mu(j)))));
      return s / n;
    };
    const huber = maeMu(fitBpiV2(pop.matrix, pop.charts));
    const ls = maeMu(fitBpiV2(pop.matrix, pop.charts, { huberC: Infinity }));
    expect(huber).toBeLessThan(0.6 * ls);
  });

  it('reports progress: phases in order, fractions non-decreasing up to 1', () => {
    const pop = generatePopulation({ players: 300, charts: 40, seed: 3 });
    const seen: FitProgress[] = [];
    const fit = fitBpiV2(pop.matrix, pop.charts, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toEqual({ phase: 'prepare', fraction: 0, iteration: undefined });
    expect(seen[seen.length - 1]).toEqual({ phase: 'anchor', fraction: 1, iteration: undefined });
    for (let q = 1; q < seen.length; q++) expect(seen[q].fraction).toBeGreaterThanOrEqual(seen[q - 1].fraction);
    const order = ['prepare', 'fit', 'anchor'];
    for (let q = 1; q < seen.length; q++)
      expect(order.indexOf(seen[q].phase)).toBeGreaterThanOrEqual(order.indexOf(seen[q - 1].phase));
    expect(seen.filter((p) => p.phase === 'fit').map((p) => p.iteration)).toEqual(
      Array.from({ length: fit.iterations }, (_, q) => q + 1),
    );
  });

  it('recovers an exact rank-one case worked by hand', () => {
    // Two charts of 1000 notes (m = 2000), three players. Missing EX (m − s):
    //   chart 0: 400, 200, 100 → t = −ln 400, −ln 200, −ln 100: steps of ln 2 around −ln 200
    //   chart 1: 900, 300, 100 → t = −ln 900, −ln 300, −ln 100: steps of ln 3 around −ln 300
    // Both rows are the same skills (−a, 0, a); mean 0 and sd 1 (population sd) need 2a²/3 = 1 → a = √1.5.
    // So mu0 = −ln 200 = −5.298317, sigma0 = ln 2/√1.5 = 0.565952; mu1 = −ln 300 = −5.703782,
    // sigma1 = ln 3/√1.5 = 0.897013.
    const b = new ScoreMatrixBuilder(3, 2);
    [
      [1600, 1100],
      [1800, 1700],
      [1900, 1900],
    ].forEach(([s0, s1], i) => {
      b.add(i, 1, s1);
      b.add(i, 0, s0);
    });
    // kaiden averages at skill 0 (m − k = 200 and 300) → z0 = 0; WRs: chart 0 m − s = 25 → t − mu0 = ln 8 → z = 3 ln 2/sigma0 = 3√1.5
    // = 3.674235; chart 1 m − s = 12 → t − mu1 = ln 25 → z = 2 ln 5·√1.5/ln 3 = 3.588438. Median gap 3.631336,
    // MAD 0.042899 → band ±0.127206 holds both → gamma 1.
    const charts = [
      { notes: 1000, kaidenAvg: 1800, wr: 1975 },
      { notes: 1000, kaidenAvg: 1700, wr: 1988 },
    ];
    const fit = fitBpiV2(b.build(), charts, { minPlayersPerChart: 3, minChartsPerPlayer: 2 });
    const a = Math.sqrt(1.5);
    expect(fit.converged).toBe(true);
    expect(fit.charts[0]!.mu).toBeCloseTo(-Math.log(200), 8);
    expect(fit.charts[0]!.sigma).toBeCloseTo(Math.log(2) / a, 8);
    expect(fit.charts[1]!.mu).toBeCloseTo(-Math.log(300), 8);
    expect(fit.charts[1]!.sigma).toBeCloseTo(Math.log(3) / a, 8);
    expect(Array.from(fit.skill).map((x) => +x.toFixed(8))).toEqual([-a, 0, a].map((x) => +x.toFixed(8)));
    expect(fit.anchors.z0).toBeCloseTo(0, 8);
    expect(fit.charts[0]!.params.z100).toBeCloseTo(3.674235, 5);
    expect(fit.charts[1]!.params.z100).toBeCloseTo(3.588438, 5);
    expect(fit.charts.map((c) => c!.params.gamma)).toEqual([1, 1]);
    // The third player's V2 BPIs: chart 0 z = √1.5 → r = √1.5/(3√1.5) = 1/3 → 33.33;
    // chart 1 z = √1.5 → r = ln 3/(2 ln 5) = 1.098612/3.218876 = 0.341303 → 34.13; total over N = 2 (K = 1): (33.33 + 34.13)/2 = 33.73
    const b0 = calcBpiV2(1900, 1000, fit.charts[0]!.params)!;
    const b1 = calcBpiV2(1900, 1000, fit.charts[1]!.params)!;
    expect([b0, b1]).toEqual([33.33, 34.13]);
    expect(totalBpiV2([b0, b1], 2)).toBe(33.73);
    expect(fit.rmseT).toBeLessThan(1e-8);
  });

  it('leaves out charts below the minimum, players below theirs, and bests of 0 or above the max', () => {
    const b = new ScoreMatrixBuilder(4, 3);
    // chart 2 has only 2 players; player 3 has only one chart; chart 0 has a best above its max (2001 > 2000)
    [
      [0, 0, 1500],
      [0, 1, 1500],
      [0, 2, 1600],
      [1, 0, 1700],
      [1, 1, 1650],
      [1, 2, 1700],
      [2, 0, 1800],
      [2, 1, 1750],
      [3, 0, 2001],
      [3, 1, 0],
    ].forEach(([i, j, s]) => b.add(i, j, s));
    const fit = fitBpiV2(b.build(), [{ notes: 1000 }, { notes: 1000 }, { notes: 1000 }], {
      minPlayersPerChart: 3,
      minChartsPerPlayer: 2,
    });
    expect(fit.charts[2]).toBeNull();
    expect(fit.charts[0]!.players).toBe(3);
    expect(Number.isNaN(fit.skill[3])).toBe(true);
    expect(fit.players).toBe(3);
    expect(fit.observations).toBe(6);
    // no kaiden average or WR anywhere: z0 = 0, and the best fitted player stands for BPI 100
    expect(fit.anchors).toMatchObject({ z0: 0, z0Source: 'populationMean', gapSource: 'bestPlayer' });
    const best = Math.max(fit.skill[0], fit.skill[1], fit.skill[2]);
    expect(fit.charts[0]!.params.z100).toBeCloseTo(best, 12);
    expect(fit.charts[1]!.params.z100).toBeCloseTo(best, 12);
  });

  it('builds the sparse matrix from triples in any order, keeping the higher of duplicates', () => {
    const b = new ScoreMatrixBuilder(3, 4);
    b.add(2, 1, 100);
    b.add(0, 3, 50);
    b.add(2, 0, 70);
    b.add(0, 3, 60); // duplicate of (0, 3): keeps 60
    b.add(0, 1, 10);
    const m = b.build();
    // rows: player 0 → charts 3, 1; player 1 → none; player 2 → charts 1, 0
    expect(Array.from(m.rowPtr)).toEqual([0, 2, 2, 4]);
    expect(Array.from(m.chart)).toEqual([3, 1, 1, 0]);
    expect(Array.from(m.ex)).toEqual([60, 10, 100, 70]);
    expect(() => new ScoreMatrixBuilder(3, 4).add(3, 0, 1)).toThrow('player index 3 is outside [0, 3)');
  });

  it('refuses malformed input with a message naming the problem', () => {
    const ok: ScoreMatrix = {
      players: 1,
      charts: 1,
      rowPtr: Int32Array.of(0, 1),
      chart: Int32Array.of(0),
      ex: Int32Array.of(10),
    };
    expect(() => fitBpiV2(ok, [])).toThrow('charts must describe 1 charts (got 0)');
    expect(() => fitBpiV2({ ...ok, rowPtr: Int32Array.of(0) }, [{ notes: 10 }])).toThrow(
      'rowPtr must have players + 1 = 2 entries',
    );
    expect(() => fitBpiV2({ ...ok, chart: Int32Array.of(5) }, [{ notes: 10 }])).toThrow(
      'chart index 5 at entry 0 is outside [0, 1)',
    );
    expect(() => fitBpiV2(ok, [{ notes: 10 }], { heldOut: new Uint8Array(3) })).toThrow(
      'heldOut must have one flag per entry',
    );
    expect(() => fitBpiV2(ok, [{ notes: 10 }], { minPlayersPerChart: 1 })).toThrow(
      'minPlayersPerChart must be at least 3',
    );
  });
});
