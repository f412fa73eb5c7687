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
 * The reference's two modes (docs/domain/social.md#similar-players): Euclidean distance over a fixed list of
 * attributes, a missing (or null) attribute counting as 0. PROFILE: the 11 `p_*` attributes
 * (relative within the chart); GLOBAL: 9 of the `g_*` attributes (comparable across charts;
 * `g_udeoshi` and `g_scratch_complex` are left out, as the reference). SHARED (ours, the default
 * before the modes): every attribute name both charts have.
 */
export const PROFILE_ATTRIBUTES = [
  'p_scratch',
  'p_soflan',
  'p_cn',
  'p_chord',
  'p_intensity',
  'p_delay',
  'p_scratch_complex',
  'p_tateren',
  'p_trill_denim',
  'p_peak',
  'p_udeoshi',
] as const;
export const GLOBAL_ATTRIBUTES = [
  'g_scratch',
  'g_soflan',
  'g_cn',
  'g_chord',
  'g_intensity',
  'g_delay',
  'g_tateren',
  'g_trill_denim',
  'g_peak',
] as const;

export type SimilarityMode = 'SHARED' | 'PROFILE' | 'GLOBAL';

/** The attribute family of a name: 'p' (profile), 'g' (global) or '' (any other name). */
export function attributeFamily(name: string): 'p' | 'g' | '' {
  return name.startsWith('p_') ? 'p' : name.startsWith('g_') ? 'g' : '';
}

/** Does the vector take part in the mode? (SHARED: any vector; PROFILE / GLOBAL: one attribute of that family) */
export function hasModeAttributes(v: AttributeVector, mode: SimilarityMode): boolean {
  if (mode === 'SHARED') return true;
  const family = mode === 'PROFILE' ? 'p' : 'g';
  return Object.keys(v).some((k) => attributeFamily(k) === family);
}

/** Distance of two vectors in a mode (null: SHARED and no common name). */
export function modeDistance(a: AttributeVector, b: AttributeVector, mode: SimilarityMode): number | null {
  if (mode === 'SHARED') return attributeDistance(a, b);
  const dims = mode === 'PROFILE' ? PROFILE_ATTRIBUTES : GLOBAL_ATTRIBUTES;
  let sum = 0;
  for (const k of dims) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/**
 * An import's vector merged into a chart's current one: each attribute family present in the
 * import (p_*, g_*, other names) replaces that family; families it lacks are kept — so the
 * profile and the global vector sets can be imported from separate files, in either order.
 */
export function mergeAttributeVector(current: AttributeVector | null, incoming: AttributeVector): AttributeVector {
  const families = new Set(Object.keys(incoming).map(attributeFamily));
  const kept = Object.entries(current ?? {}).filter(([k]) => !families.has(attributeFamily(k)));
  return { ...Object.fromEntries(kept), ...incoming };
}

/**
 * Does a chart exist in game version `version`? Released in or before it and not removed in or
 * before it. `INF` (the PC version) has no release history: every chart counts.
 */
export function chartInVersion(
  chart: { releasedVersion: number | null; removedInVersion: string | null },
  version: string,
): boolean {
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
