/**
 * The input of the V2 fit: a sparse player × chart matrix of best EX scores in compressed sparse
 * row form (one row per player), on typed arrays so that 10M bests take 80 MB.
 */

export interface ScoreMatrix {
  /** number of players (rows) */
  players: number;
  /** number of charts (columns) */
  charts: number;
  /** row i holds entries rowPtr[i] … rowPtr[i+1]−1; length players + 1, rowPtr[0] = 0 */
  rowPtr: Int32Array;
  /** chart index of each entry, in [0, charts); at most one entry per (player, chart) */
  chart: Int32Array;
  /** best EX score of each entry */
  ex: Int32Array;
}

/** What the fit needs of one chart (the current definition of the vintage being fitted). */
export interface ChartInfo {
  notes: number;
  /** kaiden-average EX score; null/undefined/≤ 0 = unknown */
  kaidenAvg?: number | null;
  /** world-record EX score; null/undefined/≤ 0 = unknown */
  wr?: number | null;
  /** V1 exponent (only for the V1 comparison of the evaluation) */
  coef?: number | null;
}

/** Throws a RangeError naming what is wrong when the matrix is not well formed. */
export function checkMatrix(m: ScoreMatrix, charts?: readonly ChartInfo[]): void {
  if (!Number.isInteger(m.players) || m.players < 0)
    throw new RangeError(`players must be a non-negative integer (got ${m.players})`);
  if (!Number.isInteger(m.charts) || m.charts < 0)
    throw new RangeError(`charts must be a non-negative integer (got ${m.charts})`);
  if (m.rowPtr.length !== m.players + 1)
    throw new RangeError(`rowPtr must have players + 1 = ${m.players + 1} entries (got ${m.rowPtr.length})`);
  if (m.rowPtr[0] !== 0) throw new RangeError('rowPtr[0] must be 0');
  const nnz = m.rowPtr[m.players];
  if (m.chart.length !== nnz || m.ex.length !== nnz)
    throw new RangeError(
      `chart and ex must have rowPtr[players] = ${nnz} entries (got ${m.chart.length}, ${m.ex.length})`,
    );
  for (let i = 0; i < m.players; i++)
    if (m.rowPtr[i + 1] < m.rowPtr[i]) throw new RangeError(`rowPtr must be non-decreasing (row ${i})`);
  for (let k = 0; k < nnz; k++) {
    const j = m.chart[k];
    if (!(j >= 0 && j < m.charts)) throw new RangeError(`chart index ${j} at entry ${k} is outside [0, ${m.charts})`);
  }
  if (charts && charts.length !== m.charts)
    throw new RangeError(`charts must describe ${m.charts} charts (got ${charts.length})`);
}

/**
 * Builds a ScoreMatrix from (player, chart, EX) triples in any order (for instance a database
 * cursor). A repeated (player, chart) keeps the higher EX score. Memory: 12 bytes per triple while
 * adding, then the 8 bytes per entry of the matrix.
 */
export class ScoreMatrixBuilder {
  private p = new Int32Array(1024);
  private c = new Int32Array(1024);
  private e = new Int32Array(1024);
  private n = 0;

  constructor(
    readonly players: number,
    readonly charts: number,
  ) {}

  get size(): number {
    return this.n;
  }

  add(player: number, chart: number, ex: number): void {
    if (!(Number.isInteger(player) && player >= 0 && player < this.players))
      throw new RangeError(`player index ${player} is outside [0, ${this.players})`);
    if (!(Number.isInteger(chart) && chart >= 0 && chart < this.charts))
      throw new RangeError(`chart index ${chart} is outside [0, ${this.charts})`);
    if (this.n === this.p.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.p = grow(this.p);
      this.c = grow(this.c);
      this.e = grow(this.e);
    }
    this.p[this.n] = player;
    this.c[this.n] = chart;
    this.e[this.n] = ex;
    this.n++;
  }

  /** The matrix (counting sort by player; duplicates merged). The builder is spent afterwards. */
  build(): ScoreMatrix {
    const { players, charts, n } = this;
    const rowPtr = new Int32Array(players + 1);
    for (let k = 0; k < n; k++) rowPtr[this.p[k] + 1]++;
    for (let i = 0; i < players; i++) rowPtr[i + 1] += rowPtr[i];
    const fill = rowPtr.slice(0, players);
    let chart = new Int32Array(n);
    let ex = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const at = fill[this.p[k]]++;
      chart[at] = this.c[k];
      ex[at] = this.e[k];
    }
    this.p = this.c = this.e = new Int32Array(0);
    // merge duplicates within each row: slot[j] = position of chart j in the current row
    const slot = new Int32Array(charts).fill(-1);
    let w = 0;
    let start = 0;
    for (let i = 0; i < players; i++) {
      const end = rowPtr[i + 1];
      const rowStart = w;
      for (let k = start; k < end; k++) {
        const j = chart[k];
        const at = slot[j];
        if (at >= rowStart) {
          if (ex[k] > ex[at]) ex[at] = ex[k];
        } else {
          slot[j] = w;
          chart[w] = j;
          ex[w] = ex[k];
          w++;
        }
      }
      start = end;
      rowPtr[i + 1] = w;
    }
    if (w < n) {
      chart = chart.slice(0, w);
      ex = ex.slice(0, w);
    }
    return { players, charts, rowPtr, chart, ex };
  }
}
