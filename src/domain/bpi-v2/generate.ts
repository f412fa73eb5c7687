/**
 * A generated score population with known true V2 parameters, for the recovery tests and the
 * benchmark. Seeded (sfc32), so a seed always gives the same population.
 *
 * Truth: θ_i ~ N(0, 1); per chart sigma_j ~ U(0.3, 0.6), omega_j = rho_j·sigma_j with
 * rho_j ~ U(0.3, 0.55) (skill explains ≈ 77–92 % of a chart's score variance); mu_j puts the
 * kaiden average at skill `kaidenSkill` (from a real kaiden average when definitions are given,
 * else from a skill-0 score rate ~ U(0.78, 0.90); these ranges keep the expected scores of all but the
 * weakest ≈ 1 % of players above 0, where the log-linear model holds). A best is
 *   t = mu_j + sigma_j·θ_i + omega_j·N(0, 1),  EX = round(m − e^(−t)) clamped to [0, m]
 * except for outliers (rate `outlierRate`: two thirds far low, −U(3, 8)·omega_j, a failed or
 * half-hearted best; one third far high, +U(3, 6)·omega_j). A best of 0 is left out.
 * Sparsity: player i plays chart j with probability logistic(logit(density) + a_i +
 * selection·θ_i·(2h_j − 1)), a_i ~ N(0, 0.8) the player's activity and h_j ∈ [0, 1] the chart's
 * difficulty rank (1 = hardest): stronger players play more of the hard charts and fewer easy
 * ones. The last `sparseCharts` charts are played by few players: chart k of them by about
 * 5 + 95·k/(sparseCharts − 1) players in expectation.
 */
import type { ChartInfo, ScoreMatrix } from './matrix';
import { exFromT, transformT } from './model';

/** sfc32 (Small Fast Counter), seeded through splitmix32: a small, good, reproducible PRNG. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Standard normal draws from a uniform source (Box–Muller, both values used). */
export function normalSource(random: () => number): () => number {
  let spare = NaN;
  return () => {
    if (spare === spare) {
      const v = spare;
      spare = NaN;
      return v;
    }
    const u = 1 - random(); // (0, 1]
    const r = Math.sqrt(-2 * Math.log(u));
    const a = 2 * Math.PI * random();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

export interface GenerateOptions {
  players: number;
  charts: number;
  seed?: number;
  /** real charts to take notes, kaiden average and WR from (cycled); otherwise generated */
  definitions?: readonly ChartInfo[];
  /** baseline play probability (the logistic's offset); ≥ 1: every player plays every chart (default 0.5) */
  density?: number;
  /** how strongly stronger players prefer harder charts (default 1.5) */
  selection?: number;
  /** how many of the last charts are rarely played (default 0) */
  sparseCharts?: number;
  /** share of outlying bests (default 0.03) */
  outlierRate?: number;
  /** true skill level of the kaiden average (default −0.5) */
  kaidenSkill?: number;
  /** typical true skill level of a generated WR (default 4); its sd is 0.3 */
  wrSkill?: number;
  /** share of generated WRs 2 skill units beyond the typical level (default 0.05) */
  wrOutlierRate?: number;
}

export interface GeneratedPopulation {
  matrix: ScoreMatrix;
  charts: ChartInfo[];
  truth: {
    skill: Float64Array;
    mu: Float64Array;
    sigma: Float64Array;
    omega: Float64Array;
    kaidenSkill: number;
  };
}

export function generatePopulation(o: GenerateOptions): GeneratedPopulation {
  const P = o.players;
  const C = o.charts;
  const random = seededRandom(o.seed ?? 1);
  const normal = normalSource(random);
  const density = o.density ?? 0.5;
  const selection = o.selection ?? 1.5;
  const sparse = Math.min(C, o.sparseCharts ?? 0);
  const outlierRate = o.outlierRate ?? 0.03;
  const kaidenSkill = o.kaidenSkill ?? -0.5;
  const wrSkill = o.wrSkill ?? 4;
  const wrOutlierRate = o.wrOutlierRate ?? 0.05;
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * random();

  // charts
  const mu = new Float64Array(C);
  const sigma = new Float64Array(C);
  const omega = new Float64Array(C);
  const m2 = new Float64Array(C);
  const charts: ChartInfo[] = [];
  const rate0 = new Float64Array(C);
  for (let j = 0; j < C; j++) {
    const def = o.definitions && o.definitions.length > 0 ? o.definitions[j % o.definitions.length] : undefined;
    const notes = def && def.notes > 0 ? def.notes : 500 + Math.floor(random() * 1700);
    const m = notes * 2;
    m2[j] = m;
    sigma[j] = uniform(0.3, 0.6);
    omega[j] = uniform(0.3, 0.55) * sigma[j];
    const k = def?.kaidenAvg;
    const realK = typeof k === 'number' && k > 0 && k < m;
    mu[j] = realK ? transformT(k, m) - sigma[j] * kaidenSkill : -Math.log(m * (1 - uniform(0.78, 0.9)));
    const kaidenAvg = realK ? k : Math.round(exFromT(mu[j] + sigma[j] * (kaidenSkill + 0.1 * normal()), m));
    const w = def?.wr;
    const wr =
      typeof w === 'number' && w > 0 && w <= m
        ? w
        : Math.round(exFromT(mu[j] + sigma[j] * (wrSkill + 0.3 * normal() + (random() < wrOutlierRate ? 2 : 0)), m));
    charts.push({ notes, kaidenAvg, wr, coef: def?.coef ?? null });
    rate0[j] = exFromT(mu[j], m) / m;
  }
  // difficulty rank h_j: 1 = the lowest score rate at skill 0
  const order = Array.from({ length: C }, (_, j) => j).sort((a, b) => rate0[a] - rate0[b] || a - b);
  const h = new Float64Array(C);
  order.forEach((j, r) => (h[j] = C > 1 ? 1 - r / (C - 1) : 0.5));

  // players and their bests, row by row
  const skill = new Float64Array(P);
  const rowPtr = new Int32Array(P + 1);
  let cap = Math.max(1024, Math.ceil(P * C * Math.min(1, density) * 1.1));
  let col = new Int32Array(cap);
  let ex = new Int32Array(cap);
  let n = 0;
  const base = density >= 1 ? Infinity : Math.log(density / (1 - density));
  for (let i = 0; i < P; i++) {
    const th = normal();
    skill[i] = th;
    const activity = 0.8 * normal();
    for (let j = 0; j < C; j++) {
      let p: number;
      if (j >= C - sparse) {
        const target = sparse > 1 ? 5 + (95 * (j - (C - sparse))) / (sparse - 1) : 5;
        p = target / P;
      } else {
        p = base === Infinity ? 1 : 1 / (1 + Math.exp(-(base + activity + selection * th * (2 * h[j] - 1))));
      }
      if (random() >= p) continue;
      let e = omega[j] * normal();
      if (random() < outlierRate) e = random() < 2 / 3 ? -omega[j] * uniform(3, 8) : omega[j] * uniform(3, 6);
      const s = Math.round(exFromT(mu[j] + sigma[j] * th + e, m2[j]));
      if (s <= 0) continue;
      if (n === cap) {
        cap *= 2;
        const c2 = new Int32Array(cap);
        c2.set(col);
        col = c2;
        const e2 = new Int32Array(cap);
        e2.set(ex);
        ex = e2;
      }
      col[n] = j;
      ex[n] = s;
      n++;
    }
    rowPtr[i + 1] = n;
  }
  return {
    matrix: { players: P, charts: C, rowPtr, chart: col.slice(0, n), ex: ex.slice(0, n) },
    charts,
    truth: { skill, mu, sigma, omega, kaidenSkill },
  };
}
