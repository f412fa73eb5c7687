import {
  evaluateBpiV2,
  foldOf,
  type EvaluateProgress,
  generatePopulation,
  heldOutMask,
  transformT,
} from '../../src/domain/bpi-v2';

describe('held-out split', () => {
  it('puts every entry in exactly one of K folds, about 1/K each, the same every time', () => {
    const pop = generatePopulation({ players: 400, charts: 100, seed: 5 });
    const nnz = pop.matrix.chart.length;
    const masks = Array.from({ length: 10 }, (_, f) => heldOutMask(pop.matrix, 10, f));
    let notExactlyOne = 0;
    for (let k = 0; k < nnz; k++) if (masks.reduce((s, m) => s + m[k], 0) !== 1) notExactlyOne++;
    expect(notExactlyOne).toBe(0);
    for (const m of masks) {
      const share = m.reduce((s, x) => s + x, 0) / nnz;
      expect(share).toBeGreaterThan(0.09);
      expect(share).toBeLessThan(0.11);
    }
    expect(foldOf(12, 34, 10)).toBe(foldOf(12, 34, 10));
    expect(() => heldOutMask(pop.matrix, 1, 0)).toThrow('folds must be an integer ≥ 2');
    expect(() => heldOutMask(pop.matrix, 10, 10)).toThrow('fold must be an integer in [0, 10)');
  });
});

describe('held-out quality of the V2 fit', () => {
  // No outliers here, so the best possible prediction error is the noise itself: with the true
  // parameters, the held-out residual t − (mu + sigma·θ) has sd omega_j (the "oracle" error below).
  const pop = generatePopulation({ players: 2000, charts: 100, seed: 21, outlierRate: 0 });
  const progress: EvaluateProgress[] = [];
  const ev = evaluateBpiV2(pop.matrix, pop.charts, { onProgress: (p) => progress.push(p) });

  it('holds out about 10 % and predicts it nearly as well as the true parameters (within 5 %)', () => {
    const mask = heldOutMask(pop.matrix, 10, 0);
    const { rowPtr, chart, ex } = pop.matrix;
    let n = 0;
    let sse = 0;
    for (let i = 0; i < pop.matrix.players; i++) {
      if (!Number.isFinite(ev.fit.skill[i])) continue;
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
        const j = chart[k];
        if (!mask[k] || !ev.fit.charts[j]) continue;
        const t = transformT(ex[k], pop.charts[j].notes * 2);
        sse += (t - pop.truth.mu[j] - pop.truth.sigma[j] * pop.truth.skill[i]) ** 2;
        n++;
      }
    }
    const oracle = Math.sqrt(sse / n);
    expect(ev.heldOut.observations).toBe(n);
    expect(n / pop.matrix.chart.length).toBeGreaterThan(0.09);
    expect(ev.heldOut.rmseT).toBeGreaterThanOrEqual(oracle * 0.95);
    expect(ev.heldOut.rmseT).toBeLessThanOrEqual(oracle * 1.05);
    expect(ev.heldOut.maeEx).toBeGreaterThan(0);
    expect(ev.heldOut.r2WithinChart).toBeGreaterThan(0.6);
    // training fit and held-out figures agree (no overfitting with ~900 players per chart)
    expect(Math.abs(ev.heldOut.rmseT - ev.fit.rmseT)).toBeLessThan(0.02);
  });

  it('compares with V1 on the same held-out bests: V2 predicts better and the two BPIs agree in order', () => {
    const c = ev.v1Comparison;
    // every generated chart has a kaiden average and a WR, so every usable held-out best is compared
    expect(c.v2.observations).toBe(ev.heldOut.observations);
    expect(c.v1.observations).toBe(c.v2.observations);
    expect(c.v2.rmseT).toBeCloseTo(ev.heldOut.rmseT, 12);
    // V1 predicts a best from the player's median V1 BPI; its two reference points per chart carry noise
    // (kaiden average ±0.1 skill, WR ±0.3, 5 % far-out WRs) that the fitted scale does not
    expect(c.v2.rmseT).toBeLessThan(c.v1.rmseT);
    expect(c.v2.maeEx).toBeLessThan(c.v1.maeEx);
    expect(c.bpiSpearman).toBeGreaterThan(0.9);
    expect(Number.isFinite(c.bpiRmse) && c.bpiRmse > 0).toBe(true);
  });

  it('reports progress through the fit and the predictions, non-decreasing up to 1', () => {
    expect(progress[0].phase).toBe('prepare');
    expect(progress.some((p) => p.phase === 'fit')).toBe(true);
    expect(progress.filter((p) => p.phase !== 'evaluate').every((p) => p.fraction <= 0.85)).toBe(true);
    for (let q = 1; q < progress.length; q++)
      expect(progress[q].fraction).toBeGreaterThanOrEqual(progress[q - 1].fraction);
    expect(progress[progress.length - 1]).toEqual({ phase: 'evaluate', fraction: 1 });
  });
});
