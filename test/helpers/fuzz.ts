/**
 * How hard the property and fuzz tests push. `npm test` runs 200 cases per fuzz property (a few
 * seconds a file); `.ci/nightly` (and anyone chasing a bug) sets FUZZ_RUNS=1000 or more.
 * Counts tuned for the default scale with the fuzz level: `fuzzRuns(3000)` is 3,000 at
 * FUZZ_RUNS=1000 and 600 by default.
 */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS) || 200);

export function fuzzRuns(atThousand: number): number {
  return Math.max(1, Math.round((atThousand * FUZZ_RUNS) / 1000));
}
