import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { Difficulty, PlayStyle } from '../shared/enums';
import { ConnectionArgs } from '../../graphql/connection';

@InputType('ScoreRowInput', { description: 'One normalized row (as produced by the CSV adapters)' })
export class ScoreRowInput {
  @Field(() => String) title!: string;
  @Field(() => PlayStyle, { nullable: true, description: 'Play style (default SP)' }) playStyle?: PlayStyle | null;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int, { nullable: true, description: "The chart's level (1–12): a chart the catalogue does not hold is learned from it (no BPI)" }) level?: number | null;
  @Field(() => Int) exScore!: number;
  @Field(() => String, { description: 'Lamp: wire string ("HARD CLEAR") or enum name (HARD_CLEAR)' }) clearState!: string;
  @Field(() => Int, { nullable: true }) missCount?: number | null;
  @Field(() => String, { nullable: true, description: 'JST wall clock "YYYY-MM-DD HH:mm[:ss]"; null = import time' }) lastPlayed?: string | null;
}

@ArgsType()
export class ImportScoresArgs {
  @Field(() => ID) userId!: string;
  @Field(() => String) version!: string;
  @Field(() => [ScoreRowInput], { description: 'At most 10,000 rows' }) rows!: ScoreRowInput[];
}

@ArgsType()
export class ImportScoresCsvArgs {
  @Field(() => ID) userId!: string;
  @Field(() => String) version!: string;
  @Field(() => String, { description: 'Official CSV, Reflux TSV, daken counter or result techo CSV (detected)' }) csv!: string;
  @Field(() => PlayStyle, { nullable: true, description: 'The play style an official CSV was downloaded for (the file does not say; default SP). Tool exports name it per row.' })
  playStyle?: PlayStyle | null;
}

@ArgsType()
export class MigrateLegacyArgs {
  @Field(() => ID) userId!: string;
  @Field(() => String, { description: 'The old app export: JSON {"<version>": {scoresHistory:[…], scores:{…}}}' }) data!: string;
}

@ArgsType()
export class ScoresArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Game version (default the latest)' }) version?: string | null;
  @Field(() => Date, { nullable: true, description: 'State as of this instant (by import time); default now' }) asOf?: Date | null;
  @Field(() => [Int], { nullable: true }) levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true }) difficulties?: Difficulty[] | null;
}

@ArgsType()
export class AllDifficultyScoresArgs extends ConnectionArgs {
  @Field(() => [Int], { nullable: true }) levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true }) difficulties?: Difficulty[] | null;
}

@ArgsType()
export class UnplayedArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true }) version?: string | null;
  @Field(() => [Int], { nullable: true }) levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true }) difficulties?: Difficulty[] | null;
}

@ArgsType()
export class BestEverArgs {
  @Field(() => String) currentVersion!: string;
  @Field(() => Boolean, { defaultValue: false }) excludeCurrent!: boolean;
}

@ArgsType()
export class VersionComparisonArgs {
  @Field(() => String) currentVersion!: string;
  @Field(() => String) targetVersion!: string;
}
