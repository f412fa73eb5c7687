/**
 * Fingering ("random lane") patterns: a 7-character string of the lanes 1–7 seen from the 1P
 * side, each lane exactly once. `1234567` = normal, `7654321` = mirror, the rotations of
 * `1234567` = R-RANDOM, any other permutation = a RANDOM layout (7! = 5040 in all).
 */
export const PATTERN_LENGTH = 7;

/** True when `p` is a permutation of 1–7 written as 7 digits. */
export function isValidPattern(p: unknown): p is string {
  if (typeof p !== 'string' || !/^[1-7]{7}$/.test(p)) return false;
  return new Set(p).size === PATTERN_LENGTH;
}

/** Why a pattern string is invalid (null when valid). */
export function patternProblem(p: string): string | null {
  if (!/^\d{7}$/.test(p)) return 'pattern must be 7 digits';
  if (!/^[1-7]{7}$/.test(p)) return 'pattern may only use the lanes 1–7';
  if (new Set(p).size !== PATTERN_LENGTH) return 'pattern must use each lane 1–7 exactly once';
  return null;
}
