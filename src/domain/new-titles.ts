/**
 * Caps on the new titles an import may learn (pure; docs/domain/imports.md#new-titles). A row
 * whose song is not in the public catalogue (a title the catalogue does not hold, or one only held
 * provisionally) brings a "new title" unless the player already holds that title. The new titles
 * are taken in file order (first row naming each) up to the smaller of the per-import cap and what
 * is left of the per-player day cap; every row of a title past it is not taken, with the reason.
 */
export interface NewTitleLimits {
  /** New titles one import may bring. */
  perImport: number;
  /** New titles one player may bring in 24 hours (all imports together). */
  perDay: number;
}

export interface NewTitleRow {
  line: number;
  /** title key (src/domain/titles.ts) of a song not in the public catalogue; absent: an ordinary song */
  newTitle?: string;
}

export interface NewTitleVerdict {
  /** the new titles taken (keys) */
  taken: Set<string>;
  /** the titles refused (keys) with the reason shown on each of their rows */
  refused: Map<string, string>;
}

/**
 * @param held title keys the player already holds (not new to them)
 * @param todaySoFar new titles the player brought in the last 24 hours before this import
 */
export function capNewTitles(
  rows: readonly NewTitleRow[],
  held: ReadonlySet<string>,
  todaySoFar: number,
  limits: NewTitleLimits,
): NewTitleVerdict {
  const taken = new Set<string>();
  const refused = new Map<string, string>();
  const leftToday = Math.max(0, limits.perDay - todaySoFar);
  for (const r of rows) {
    const t = r.newTitle;
    if (t === undefined || held.has(t) || taken.has(t) || refused.has(t)) continue;
    if (taken.size >= limits.perImport)
      refused.set(t, `new title not taken: at most ${limits.perImport} new titles per import`);
    else if (taken.size >= leftToday)
      refused.set(
        t,
        `new title not taken: at most ${limits.perDay} new titles per player in 24 hours (${todaySoFar} already)`,
      );
    else taken.add(t);
  }
  return { taken, refused };
}
