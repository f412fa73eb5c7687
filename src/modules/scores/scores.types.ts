import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScoreSortKey, SortOrder } from '../../domain/score-list';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

registerEnumType(ScoreSortKey, {
  name: 'ScoreSortKey',
  description: "Sort keys of the score lists (the reference's; rival keys live on rival comparisons)",
  valuesConfig: {
    TITLE: { description: 'Title (collation order)' },
    LEVEL: { description: 'Chart level' },
    BPI: { description: 'BPI of the best (missing = −15)' },
    EX_SCORE: { description: 'Best EX score (unplayed = −1)' },
    NOTES: { description: 'Note count (unknown = −1)' },
    BPM: { description: 'Highest BPM' },
    UPDATED_AT: { description: 'Last improving play (unplayed = 0)' },
    VERSION: { description: 'Release version of the chart' },
    SCORE_RATE: { description: 'EX score / (2 × notes) (unplayed or unknown notes = −1)' },
    CLEAR_LAMP: { description: 'Lamp rank (unplayed = −1)' },
    MISS_COUNT: { description: 'Fewest misses of the best (unknown = −1)' },
  },
});
registerEnumType(SortOrder, {
  name: 'SortOrder',
  description: 'Ascending or descending',
  valuesConfig: { ASC: { description: 'Smallest first' }, DESC: { description: 'Largest first' } },
});
export { ScoreSortKey, SortOrder };

/** Chart facts repeated on score entries (from the in-memory catalogue, current definition). */
@ObjectType()
export abstract class ChartFields {
  @Field(() => Int, { description: 'Database id of the chart (the `databaseId` of `chart`)' }) chartId!: number;
  @Field(() => Int, { description: "Database id of the chart's song" }) songId!: number;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty slot of the chart' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Chart level, 1–12' }) level!: number;
  @Field(() => Int, { nullable: true, description: 'Note count; null = unknown (a chart learned from a score export)' })
  notes!: number | null;
  @Field(() => String, {
    description: 'BPM as the definitions write it: one number, or "min-max" for a chart whose BPM changes',
  })
  bpm!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Game version the song was released in (e.g. 24); null when unknown',
  })
  releasedVersion!: number | null;
  @Field(() => Int, { nullable: true, description: 'World-record EX score of the current definition' }) wrScore!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score of the current definition' }) kaidenAvg!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Definition exponent (null = default 1.175)' }) coef!:
    number | null;
  @Field(() => RadarCategory, {
    nullable: true,
    description: "The chart's radar top category (the reference's radarTop)",
  })
  radarTop!: RadarCategory | null;
}

@ObjectType('ScoreEntry', { description: "Value type: a player's best on one chart in one version, kept per field" })
export class ScoreEntryType extends ChartFields {
  @Field(() => GameVersionScalar, { description: 'Game version of this best' }) version!: string;
  @Field(() => Int, { description: 'Best EX score' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none',
  })
  bpi!: number | null;
  @Field(() => ClearLamp, { nullable: true, description: 'Best clear lamp; null when none was recorded' })
  clearLamp!: ClearLamp | null;
  @Field(() => String, { nullable: true, description: 'Lamp as the reference wire string ("HARD CLEAR")' })
  clearState!: string | null;
  @Field(() => Int, { nullable: true, description: 'Fewest misses recorded; null when unknown' }) missCount!:
    number | null;
  @Field(() => Date, { description: 'Last improving play' }) playedAt!: Date;
  @Field(() => Int, { description: 'Play id of the best EX score' }) exScoreId!: number;
}

@ObjectType({ description: "A page of a player's bests (one per chart), in the requested order" })
export class ScoreEntryConnection extends Connection(ScoreEntryType, 'ScoreEntry') {}

@ObjectType('Play', { implements: NodeInterface, description: 'One stored improving play (append-only)' })
export class PlayType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the play' }) id!: number;
  @Field(() => Int, { description: 'Database id of the chart played' }) chartId!: number;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty slot of the chart' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Chart level, 1–12' }) level!: number;
  @Field(() => GameVersionScalar, { description: 'Game version the play was imported for' }) version!: string;
  @Field(() => String, { description: 'Id of the import batch that stored the play' }) batchId!: string;
  @Field(() => Int, { description: 'EX score of the play' }) exScore!: number;
  @Field(() => ClearLamp, { nullable: true, description: 'Clear lamp of the play; null when the export did not say' })
  clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true, description: 'Miss count of the play; null when unknown' }) missCount!:
    number | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'BPI of the play — model V1 (default): stored with the definition in force at import; V2: the fitted parameters, null when the chart has none',
  })
  bpi!: number | null;
  @Field(() => Date, { description: "When the play happened (the export's time, else the import time)" })
  playedAt!: Date;
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
}

@ObjectType('BestEverEntry', { description: 'Value type: best EX score on a chart over all versions' })
export class BestEverEntryType extends ChartFields {
  @Field(() => Int, {
    description: 'Highest EX score on the chart over all versions (excluding the current one when excludeCurrent)',
  })
  bestExScore!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'BPI of that EX score under the current definition; null when the chart has no BPI definition',
  })
  bestBpi!: number | null;
  @Field(() => GameVersionScalar, { description: 'Game version in which that best was played' }) bestVersion!: string;
}

@ObjectType('ScoreSnapshot', {
  description: "Value type: a player's best on a chart in one version, as compared by versionComparison",
})
export class ScoreSnapshotType {
  @Field(() => Int, { description: 'Best EX score in that version' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'BPI of that EX score (current definition); null without a definition',
  })
  bpi!: number | null;
  @Field(() => ClearLamp, {
    nullable: true,
    description: 'Best clear lamp in that version; null when none was recorded',
  })
  clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true, description: 'Fewest misses in that version; null when unknown' }) missCount!:
    number | null;
  @Field(() => Date, { nullable: true, description: 'Last improving play in that version; null when unknown' })
  playedAt!: Date | null;
}

@ObjectType('VersionComparisonEntry', { description: "Value type: one chart's best in two versions, side by side" })
export class VersionComparisonEntryType extends ChartFields {
  @Field(() => ScoreSnapshotType, {
    nullable: true,
    description: 'The best in currentVersion; null when not played there',
  })
  current!: ScoreSnapshotType | null;
  @Field(() => ScoreSnapshotType, {
    nullable: true,
    description: 'The best in targetVersion; null when not played there',
  })
  previous!: ScoreSnapshotType | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'current − previous EX; null when one side is missing (versionComparison, as the reference). In versionSummary: the current EX when there is no previous, 0 when no current',
  })
  exDiff!: number | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'current − previous BPI (a missing BPI counts as −15); null when one side is missing (versionComparison). In versionSummary: current + 15 when there is no previous, 0 when no current',
  })
  bpiDiff!: number | null;
}

@ObjectType('VersionPlays', { description: 'Value type: the stored plays of one chart in one version, newest first' })
export class VersionPlaysType {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => [PlayType], { description: 'Plays of that version, newest play first' }) plays!: PlayType[];
}

@ObjectType('UnplayedChart', { description: 'Value type: a chart the player has no score on in the version' })
export class UnplayedChartType extends ChartFields {}

@ObjectType({ description: 'A page of charts the player has no score on, in the requested order' })
export class UnplayedChartConnection extends Connection(UnplayedChartType, 'UnplayedChart') {}

@ObjectType('ImportNotFound', {
  description: 'Value type: a row whose chart is neither in the catalogue nor learnable (the export names no level)',
})
export class ImportNotFoundType {
  @Field(() => Int, { description: 'Line of the row in the export (1 = the first data row)' }) line!: number;
  @Field(() => String, { description: 'Title as written in the export' }) title!: string;
  @Field(() => PlayStyle, { description: 'Play style of the row' }) playStyle!: PlayStyle;
  @Field(() => String, { description: 'Difficulty as written in the export' }) difficulty!: string;
}

@ObjectType('ImportProblem', {
  description: 'Value type: a row or cell of an export that was dropped or kept with a warning',
})
export class ImportProblemType {
  @Field(() => Int, { description: 'Line of the row in the export (1 = the first data row)' }) line!: number;
  @Field(() => String, { nullable: true, description: 'Title of the row, when it could be read' }) title?: string;
  @Field(() => String, { nullable: true, description: 'Difficulty of the row, when it could be read' })
  difficulty?: string;
  @Field(() => String, { nullable: true, description: 'Column the problem is in; null when it concerns the whole row' })
  column?: string;
  @Field(() => String, { nullable: true, description: 'The offending cell as written in the export' }) value?: string;
  @Field(() => String, { description: 'What is wrong, in words' }) reason!: string;
  @Field(() => String, { description: 'error (value dropped) or warning (row kept)' }) severity!: string;
}

@ObjectType('ImportScoresPayload', {
  description:
    'What an import did: the batch written (if any), counts, the total BPI before and after, and the rows it could not use',
})
export class ImportScoresPayload {
  @Field(() => ID, { nullable: true, description: 'The new batch; null when nothing improved' }) batchId!:
    string | null;
  @Field(() => Boolean, { description: 'Nothing improved: nothing was written' }) upToDate!: boolean;
  @Field(() => String, { description: 'A one-line summary for the user' }) message!: string;
  @Field(() => String, {
    description: 'Export format detected (official CSV, Reflux TSV, daken counter, result techo, or rows)',
  })
  format!: string;
  @Field(() => GraphQLNonNegativeInt, { description: 'Rows read from the export' }) rowCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Plays stored (all charts)' }) updatedCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Plays stored on charts with a BPI definition' })
  bpiUpdatedCount!: number;
  @Field(() => Float, { description: 'Total BPI of the version before the import' }) previousTotalBpi!: number;
  @Field(() => Float, { description: 'Total BPI of the version after the import' }) newTotalBpi!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Charts present without a play (NO PLAY, zero score)' })
  skipped!: number;
  @Field(() => [ImportNotFoundType], {
    description: 'Rows whose chart is unknown and could not be learned (nothing stored for them)',
  })
  notFound!: ImportNotFoundType[];
  @Field(() => [ImportProblemType], { description: 'Rows or cells dropped (error) or kept with a warning' })
  problems!: ImportProblemType[];
  @Field(() => GraphQLNonNegativeInt, {
    description:
      'Charts the catalogue learned from this export (played charts not in the BPI definitions; stored without BPI)',
  })
  learnedCharts!: number;
}

@ObjectType('MigrateLegacyScoresPayload', { description: "What a migration of the older app's export did" })
export class MigrateLegacyScoresPayload {
  @Field(() => [GameVersionScalar], { description: 'Game versions found in the export and imported' })
  importedVersions!: string[];
  @Field(() => Int, { description: 'Plays stored' }) totalProcessed!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Import batches written (one per version and day)' })
  batchCount!: number;
  @Field(() => Int, { description: 'History entries whose chart is not in the catalogue' }) notFound!: number;
}
