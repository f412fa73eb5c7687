/**
 * Typed domain constants shared by the schema, the REST adapter, services and tests.
 * Enum value sets mirror prisma/schema.prisma (generated enums are re-exported from here).
 */
import {
  ArenaClass,
  ClearLamp,
  Difficulty,
  NotificationType,
  PlayStyle,
  RadarCategory,
  VoteType,
} from '../generated/prisma/enums';

export { ArenaClass, ClearLamp, Difficulty, NotificationType, PlayStyle, RadarCategory, VoteType };

/** Game versions in chronological order (INF, the PC version, last). */
export const GAME_VERSIONS = ['26', '27', '28', '29', '30', '31', '32', '33', '34', 'INF'] as const;
export type GameVersion = (typeof GAME_VERSIONS)[number];
export const LATEST_VERSION: GameVersion = '33';

export const VERSION_TITLES: Record<GameVersion, string> = {
  '26': 'Rootage',
  '27': 'HEROIC VERSE',
  '28': 'BISTROVER',
  '29': 'CastHour',
  '30': 'RESIDENT',
  '31': 'EPOLIS',
  '32': 'Pinky Crush',
  '33': 'Sparkle Shower',
  '34': 'ZINRAI',
  INF: 'INFINITAS',
};

export function isGameVersion(v: unknown): v is GameVersion {
  return typeof v === 'string' && (GAME_VERSIONS as readonly string[]).includes(v);
}

/** Version `a` comes before version `b` in the game's history. */
export function versionIndex(v: string): number {
  return (GAME_VERSIONS as readonly string[]).indexOf(v);
}

/** Difficulties whose level 11/12 charts carry BPI definitions. */
export const BPI_DIFFICULTIES = [Difficulty.HYPER, Difficulty.ANOTHER, Difficulty.LEGGENDARIA] as const;
export const BPI_LEVELS = [11, 12] as const;

/** Lamp rank order, higher is better. */
export const LAMP_ORDER: readonly ClearLamp[] = [
  ClearLamp.NO_PLAY,
  ClearLamp.FAILED,
  ClearLamp.ASSIST_CLEAR,
  ClearLamp.EASY_CLEAR,
  ClearLamp.CLEAR,
  ClearLamp.HARD_CLEAR,
  ClearLamp.EX_HARD_CLEAR,
  ClearLamp.FULLCOMBO_CLEAR,
];
export const lampRank = (l: ClearLamp | null | undefined): number => (l ? LAMP_ORDER.indexOf(l) : 0);

/** The wire strings of the reference system ("HARD CLEAR", "FULLCOMBO CLEAR"…). */
export const LAMP_LABEL: Record<ClearLamp, string> = {
  NO_PLAY: 'NO PLAY',
  FAILED: 'FAILED',
  ASSIST_CLEAR: 'ASSIST CLEAR',
  EASY_CLEAR: 'EASY CLEAR',
  CLEAR: 'CLEAR',
  HARD_CLEAR: 'HARD CLEAR',
  EX_HARD_CLEAR: 'EX HARD CLEAR',
  FULLCOMBO_CLEAR: 'FULLCOMBO CLEAR',
};
const LAMP_BY_LABEL = new Map(Object.entries(LAMP_LABEL).map(([k, v]) => [v, k as ClearLamp]));
export function lampFromLabel(label: string): ClearLamp | undefined {
  return LAMP_BY_LABEL.get(label.trim().toUpperCase()) ?? (label in LAMP_LABEL ? (label as ClearLamp) : undefined);
}

/** Arena classes, best first. */
export const ARENA_ORDER: readonly ArenaClass[] = [
  ArenaClass.A1,
  ArenaClass.A2,
  ArenaClass.A3,
  ArenaClass.A4,
  ArenaClass.A5,
  ArenaClass.B1,
  ArenaClass.B2,
  ArenaClass.B3,
  ArenaClass.B4,
  ArenaClass.B5,
];
export const A_CLASSES: readonly ArenaClass[] = ARENA_ORDER.slice(0, 5);

export const RADAR_CATEGORIES: readonly RadarCategory[] = [
  RadarCategory.NOTES,
  RadarCategory.CHORD,
  RadarCategory.PEAK,
  RadarCategory.CHARGE,
  RadarCategory.SCRATCH,
  RadarCategory.SOFLAN,
];

/** Which BPI a field answers: V1 (the published definitions) or V2 (fitted from this server's bests; issue #19, src/domain/bpi-v2). */
export enum BpiModel {
  V1 = 'V1',
  V2 = 'V2',
}
