import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../shared/enums';
import { ScoreSortKey, SortOrder } from './scores.types';
import { ConnectionArgs } from '../../graphql/connection';
import { GameVersionScalar } from '../../graphql/scalars';

@InputType('ScoreRowInput', { description: 'One normalized row (as produced by the CSV adapters)' })
export class ScoreRowInput {
  @Field(() => String, { description: 'Song title as the export writes it' }) title!: string;
  @Field(() => PlayStyle, { nullable: true, description: 'Play style (default SP)' }) playStyle?: PlayStyle | null;
  @Field(() => Difficulty, { description: 'Difficulty slot' }) difficulty!: Difficulty;
  @Field(() => Int, {
    nullable: true,
    description: "The chart's level (1–12): a chart the catalogue does not hold is learned from it (no BPI)",
  })
  level?: number | null;
  @Field(() => Int, { description: 'EX score (0 – 2 × notes)' }) exScore!: number;
  @Field(() => String, { description: 'Lamp: wire string ("HARD CLEAR") or enum name (HARD_CLEAR)' })
  clearState!: string;
  @Field(() => Int, { nullable: true, description: 'Miss count; null when unknown' }) missCount?: number | null;
  @Field(() => String, { nullable: true, description: 'JST wall clock "YYYY-MM-DD HH:mm[:ss]"; null = import time' })
  lastPlayed?: string | null;
}

@ArgsType()
export class ImportScoresArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => GameVersionScalar, { description: 'Game version the scores are for (e.g. "33")' }) version!: string;
  @Field(() => [ScoreRowInput], { description: 'At most 10,000 rows' }) rows!: ScoreRowInput[];
}

@ArgsType()
export class ImportScoresCsvArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => GameVersionScalar, { description: 'Game version the export is from (e.g. "33")' }) version!: string;
  @Field(() => String, {
    description:
      'Official CSV, Reflux TSV, daken counter or result techo CSV, or Tachi BATCH-MANUAL JSON (detected; docs/portability.md)',
  })
  csv!: string;
  @Field(() => PlayStyle, {
    nullable: true,
    description:
      'The play style an official CSV was downloaded for (the file does not say; default SP). Tool exports name it per row.',
  })
  playStyle?: PlayStyle | null;
}

@ArgsType()
export class MigrateLegacyArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => String, { description: 'The old app export: JSON {"<version>": {scoresHistory:[…], scores:{…}}}' })
  data!: string;
}

/** Filters and sort shared by the score lists (the reference's score-list parameters, docs/domain/score-lists.md#score-list). */
@ArgsType()
export class ScoreListArgs extends ConnectionArgs {
  @Field(() => [Int], { nullable: true, description: 'Chart levels (1–12)' }) levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'Difficulties' }) difficulties?: Difficulty[] | null;
  @Field(() => [ClearLamp], {
    nullable: true,
    description: 'Lamps of the best (NO_PLAY: a best without a lamp, and every unplayed chart)',
  })
  clearLamps?: ClearLamp[] | null;
  @Field(() => Float, { nullable: true, description: 'Lowest BPI (a missing BPI counts as −15)' }) bpiMin?:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Highest BPI (a missing BPI counts as −15)' }) bpiMax?:
    number | null;
  @Field(() => Float, { nullable: true, description: "Lowest BPM, compared with the chart's highest BPM" }) bpmMin?:
    number | null;
  @Field(() => Float, { nullable: true, description: "Highest BPM, compared with the chart's highest BPM" }) bpmMax?:
    number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only charts whose BPM changes (soflan); false: only fixed-BPM charts',
  })
  soflan?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Lowest note count' }) notesMin?: number | null;
  @Field(() => Int, { nullable: true, description: 'Highest note count' }) notesMax?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive part of the title (≤ 100 characters); exact and prefix matches come first',
  })
  search?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Game versions the charts were released in (e.g. 24)' })
  releasedVersions?: number[] | null;
  @Field(() => [RadarCategory], { nullable: true, description: 'Radar top categories of the charts' })
  radarCategories?: RadarCategory[] | null;
  @Field(() => ScoreSortKey, {
    nullable: true,
    description: 'Sort key (default LEVEL); ties by level desc, title, chart id',
  })
  sort?: ScoreSortKey | null;
  @Field(() => SortOrder, { nullable: true, description: 'Sort order (default DESC)' }) order?: SortOrder | null;
}

@ArgsType()
export class ScoresArgs extends ScoreListArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
  @Field(() => Date, { nullable: true, description: 'State as of this instant (by import time); default now' })
  asOf?: Date | null;
}

@ArgsType()
export class AllDifficultyScoresArgs extends ScoreListArgs {}

@ArgsType()
export class UnplayedArgs extends ScoreListArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
}

@ArgsType()
export class BestEverArgs {
  @Field(() => GameVersionScalar, { description: 'The current game version (e.g. "33")' }) currentVersion!: string;
  @Field(() => Boolean, {
    defaultValue: false,
    description: 'Leave out plays of currentVersion (bests of earlier versions only)',
  })
  excludeCurrent!: boolean;
}

@ArgsType()
export class VersionComparisonArgs {
  @Field(() => GameVersionScalar, { description: 'The version compared (e.g. "33")' }) currentVersion!: string;
  @Field(() => GameVersionScalar, { description: 'The version compared with (e.g. "32")' }) targetVersion!: string;
}
