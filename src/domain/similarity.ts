/**
 * Chart attribute vectors ({name: number}) and the distance used by "similar songs", plus the
 * "exists in game version V" rule used by the song lists.
 */
export type AttributeVector = Record<string, number>;

/** Keeps the finite numeric entries of a JSON value; null when nothing numeric is left. */
export function toAttributeVector(value: unknown): AttributeVector | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: AttributeVector = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * Euclidean distance over the keys both vectors have. Null when they share no key (the two
 * charts cannot be compared).
 */
export function attributeDistance(a: AttributeVector, b: AttributeVector): number | null {
  let sum = 0;
  let shared = 0;
  for (const k of Object.keys(a)) {
    if (!(k in b)) continue;
    const d = a[k] - b[k];
    sum += d * d;
    shared++;
  }
  return shared ? Math.sqrt(sum) : null;
}

/**
 * Does a chart exist in game version `version`? Released in or before it and not removed in or
 * before it. `INF` (the PC version) has no release history: every chart counts.
 */
export function chartInVersion(chart: { releasedVersion: number | null; removedInVersion: string | null }, version: string): boolean {
  if (version === 'INF') return true;
  const v = Number(version);
  if (!Number.isFinite(v)) return true;
  if (chart.releasedVersion != null && chart.releasedVersion > v) return false;
  if (chart.removedInVersion != null) {
    const removed = Number(chart.removedInVersion);
    if (Number.isFinite(removed) && removed <= v) return false;
  }
  return true;
}
