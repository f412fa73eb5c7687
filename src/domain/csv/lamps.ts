import { ClearLamp, lampFromLabel } from '../constants';

/**
 * Lamp spellings of the exports. `null` = the chart was not played (skipped, not an error);
 * undefined = unknown spelling (reported). Reflux's spelled-out FAILED is accepted (the
 * reference dropped it, docs/domain/imports.md#reflux-tsv), and so is its PFC (perfect full combo, a full
 * combo lamp; the reference dropped those charts too).
 */
const TOOL_LAMPS: Record<string, ClearLamp | null> = {
  FC: ClearLamp.FULLCOMBO_CLEAR,
  PFC: ClearLamp.FULLCOMBO_CLEAR, // Reflux: perfect full combo
  'F-COMBO': ClearLamp.FULLCOMBO_CLEAR,
  EXH: ClearLamp.EX_HARD_CLEAR,
  EX: ClearLamp.EX_HARD_CLEAR,
  'EXH-CLEAR': ClearLamp.EX_HARD_CLEAR,
  HC: ClearLamp.HARD_CLEAR,
  'H-CLEAR': ClearLamp.HARD_CLEAR,
  NC: ClearLamp.CLEAR,
  CLEAR: ClearLamp.CLEAR,
  EC: ClearLamp.EASY_CLEAR,
  'E-CLEAR': ClearLamp.EASY_CLEAR,
  AC: ClearLamp.ASSIST_CLEAR,
  'A-CLEAR': ClearLamp.ASSIST_CLEAR,
  F: ClearLamp.FAILED,
  FAILED: ClearLamp.FAILED,
  NP: null,
  'NO PLAY': null,
  '': null,
};

/** Exact official wire strings (the common case, no normalisation needed). */
const OFFICIAL: Record<string, ClearLamp | null> = {
  'NO PLAY': null,
  FAILED: ClearLamp.FAILED,
  'ASSIST CLEAR': ClearLamp.ASSIST_CLEAR,
  'EASY CLEAR': ClearLamp.EASY_CLEAR,
  CLEAR: ClearLamp.CLEAR,
  'HARD CLEAR': ClearLamp.HARD_CLEAR,
  'EX HARD CLEAR': ClearLamp.EX_HARD_CLEAR,
  'FULLCOMBO CLEAR': ClearLamp.FULLCOMBO_CLEAR,
};

/** Lamp of a cell in any export (official wire strings or tool abbreviations). */
export function parseLamp(cell: string | undefined): ClearLamp | null | undefined {
  const raw = cell ?? '';
  // own keys only: a cell such as "toString" must not find Object.prototype
  if (Object.hasOwn(OFFICIAL, raw)) return OFFICIAL[raw];
  const v = raw.trim().toUpperCase();
  if (Object.hasOwn(TOOL_LAMPS, v)) return TOOL_LAMPS[v];
  const official = lampFromLabel(v);
  if (official === ClearLamp.NO_PLAY) return null;
  return official;
}
