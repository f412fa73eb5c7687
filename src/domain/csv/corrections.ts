/**
 * Title corrections: spellings used by tool exports (Reflux reads titles from game memory)
 * mapped to catalogue titles. The map is data (a JSON object file given by configuration), never
 * compiled in; this module only validates and applies it.
 */
export type TitleCorrections = ReadonlyMap<string, string>;

export const NO_CORRECTIONS: TitleCorrections = new Map();

export function parseTitleCorrections(json: unknown): TitleCorrections {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error('Title corrections must be a JSON object {"external title": "catalogue title"}');
  }
  const map = new Map<string, string>();
  for (const [from, to] of Object.entries(json as Record<string, unknown>)) {
    if (typeof to !== 'string' || !to)
      throw new Error(`Title correction for ${JSON.stringify(from)} is not a non-empty string`);
    map.set(from, to);
  }
  return map;
}

/** The catalogue spelling of a title (the title itself when no correction applies). */
export function correctTitle(title: string, corrections: TitleCorrections): string {
  return corrections.get(title) ?? title;
}
