/**
 * The domain enums every area's GraphQL types use, registered with type-graphql once. GraphQL type
 * files import them from here (not from src/domain/constants) so that the registration is loaded
 * with them. Enums used by one area only are registered in that area (PatternVote, NotificationType…).
 */
import { registerEnumType } from 'type-graphql';
import { ImportSource } from '../../generated/prisma/enums';
import { ArenaClass, BpiModel, ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../../domain/constants';

registerEnumType(PlayStyle, {
  name: 'PlayStyle',
  description: 'SP (single play) or DP (double play)',
  valuesConfig: {
    SP: { description: 'Single play (one side, 7 keys + scratch)' },
    DP: { description: 'Double play (both sides, 14 keys + 2 scratches)' },
  },
});
registerEnumType(Difficulty, {
  name: 'Difficulty',
  valuesConfig: {
    BEGINNER: { description: 'Beginner chart' },
    NORMAL: { description: 'Normal chart' },
    HYPER: { description: 'Hyper chart' },
    ANOTHER: { description: 'Another chart' },
    LEGGENDARIA: { description: 'Leggendaria chart (the extra hard slot)' },
  },
  description: 'Chart difficulty slot of a song, easiest first (BEGINNER … LEGGENDARIA)',
});
registerEnumType(RadarCategory, {
  name: 'RadarCategory',
  description: 'Radar category a chart belongs to',
  valuesConfig: {
    NOTES: { description: 'Note density over the whole chart' },
    CHORD: { description: 'Chords (several keys at once)' },
    PEAK: { description: 'Peak density (the hardest short stretch)' },
    CHARGE: { description: 'Charge (long) notes' },
    SCRATCH: { description: 'Scratch notes' },
    SOFLAN: { description: 'Speed changes (BPM changes and stops)' },
  },
});
registerEnumType(ClearLamp, {
  name: 'ClearLamp',
  description: 'Clear lamp, in rank order (NO_PLAY lowest, FULLCOMBO_CLEAR highest)',
  valuesConfig: {
    NO_PLAY: { description: 'Not played (or no lamp recorded)' },
    FAILED: { description: 'Played, not cleared' },
    ASSIST_CLEAR: { description: 'Cleared with an assist option' },
    EASY_CLEAR: { description: 'Cleared on the easy gauge' },
    CLEAR: { description: 'Cleared on the normal gauge' },
    HARD_CLEAR: { description: 'Cleared on the hard gauge' },
    EX_HARD_CLEAR: { description: 'Cleared on the EX-hard gauge' },
    FULLCOMBO_CLEAR: { description: 'Full combo (no combo break)' },
  },
});
registerEnumType(ArenaClass, {
  name: 'ArenaClass',
  description: 'Official arena class, A1 best',
  valuesConfig: {
    A1: { description: 'Arena class A1 (the top class)' },
    A2: { description: 'Arena class A2' },
    A3: { description: 'Arena class A3' },
    A4: { description: 'Arena class A4' },
    A5: { description: 'Arena class A5 (the lowest A class)' },
    B1: { description: 'Arena class B1 (the top B class)' },
    B2: { description: 'Arena class B2' },
    B3: { description: 'Arena class B3' },
    B4: { description: 'Arena class B4' },
    B5: { description: 'Arena class B5 (the lowest class)' },
  },
});

export enum StatsPeriod {
  DAY = 'day',
  WEEK = 'week',
  MONTH = 'month',
}
registerEnumType(StatsPeriod, {
  name: 'StatsPeriod',
  description:
    'Calendar unit of a stats series: JST days, ISO weeks (Monday to Sunday, keyed by the Monday) or months (YYYY-MM)',
  valuesConfig: {
    DAY: { description: 'One JST calendar day (YYYY-MM-DD)' },
    WEEK: { description: 'One ISO week, Monday to Sunday, keyed by its Monday (YYYY-MM-DD)' },
    MONTH: { description: 'One calendar month (YYYY-MM)' },
  },
});

/** Which time of a play a period groups by (values: the service's strings). */
export enum TimeBasis {
  CREATED_AT = 'createdAt',
  PLAYED_AT = 'playedAt',
}
registerEnumType(TimeBasis, {
  name: 'TimeBasis',
  description: 'Which time of a play places it in a period',
  valuesConfig: {
    CREATED_AT: { description: 'Import time (when the batch was imported): periods of import batches' },
    PLAYED_AT: { description: 'Play time (as the export says; the import time when it does not)' },
  },
});

/** Where an import batch came from: the stored values (prisma ImportSource), exposed as they are. */
registerEnumType(ImportSource, {
  name: 'ImportSource',
  description: 'The export format an import batch was read from',
  valuesConfig: {
    ROWS: { description: 'Normalized rows (importScores)' },
    OFFICIAL_CSV: { description: 'The official score CSV of the game site' },
    REFLUX: { description: 'A Reflux TSV' },
    DAKEN_COUNTER: { description: 'A daken counter export' },
    RESULT_TECHO: { description: 'A result techo CSV' },
    TRANSFER: { description: "The older app's export (migrateLegacyScores)" },
    BATCH_MANUAL: { description: 'A Tachi BATCH-MANUAL JSON document (docs/portability.md)' },
  },
});

registerEnumType(BpiModel, {
  name: 'BpiModel',
  description:
    "Which BPI: V1 (the default) or V2 (fitted from this server's own bests; null on a chart without fitted parameters)",
  valuesConfig: {
    V1: { description: 'World record → 100, kaiden average → 0, from the published definitions (docs/domain/bpi.md)' },
    V2: {
      description:
        'A skill scale fitted per definitions vintage from the bests stored here (README "BPI V2"); null for a chart with too few players',
    },
  },
});

export { ArenaClass, BpiModel, ClearLamp, Difficulty, ImportSource, PlayStyle, RadarCategory };
