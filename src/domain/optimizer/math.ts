/**
 * The total-BPI power mean taken apart into per-chart contributions (docs/domain/optimizer.md#the-plan), so an
 * optimiser can add and remove one chart at a time. With N charts in the set and
 * K = max(1, log2 N) (the exponent of src/domain/bpi totalBpi):
 *
 *   contribution(b) = sign(b)·|b|^K / N        (one chart's share of the sum)
 *   total           = sign(S)·|S|^(1/K)         (S = Σ contributions over the N charts)
 *   sumForBpi(t)    = sign(t)·|t|^K             (the S at which the total is t)
 *
 * totalFromSum(Σ contribution(bᵢ)) is totalBpi(bᵢ, N) before its rounding to 2 decimals.
 */
export class PowerMean {
  /** The exponent K. */
  readonly k: number;

  constructor(readonly n: number) {
    this.k = Math.max(1, Math.log2(n));
  }

  contribution(bpi: number): number {
    const p = Math.pow(Math.abs(bpi), this.k) / this.n;
    return bpi > 0 ? p : -p;
  }

  totalFromSum(sum: number): number {
    if (sum === 0) return 0;
    const r = Math.pow(Math.abs(sum), 1 / this.k);
    return sum > 0 ? r : -r;
  }

  sumForBpi(total: number): number {
    const p = Math.pow(Math.abs(total), this.k);
    return total > 0 ? p : -p;
  }

  /** The single-chart BPI whose contribution is c. */
  bpiFromContribution(c: number): number {
    const p = c * this.n;
    const r = Math.pow(Math.abs(p), 1 / this.k);
    return p > 0 ? r : -r;
  }
}
