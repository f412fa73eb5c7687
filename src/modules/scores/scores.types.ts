import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScoreSortKey, SortOrder } from '../../domain/score-list';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../shared/enums';

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
registerEnumType(SortOrder, { name: 'SortOrder', description: 'Ascending or descending', valuesConfig: { ASC: { description: 'Smallest first' }, DESC: { description: 'Largest first' } } });
export { ScoreSortKey, SortOrder };

/** Chart facts repeated on score entries (from the in-memory catalogue, current definition). */
@ObjectType()
export abstract class ChartFields {
  @Field(() => Int) chartId!: number;
  @Field(() => Int) songId!: number;
  @Field(() => String) title!: string;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) level!: number;
  @Field(() => Int, { nullable: true, description: 'Note count; null = unknown (a chart learned from a score export)' }) notes!: number | null;
  @Field(() => String) bpm!: string;
  @Field(() => Int, { nullable: true }) releasedVersion!: number | null;
  @Field(() => Int, { nullable: true, description: 'World-record EX score of the current definition' }) wrScore!: number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score of the current definition' }) kaidenAvg!: number | null;
  @Field(() => Float, { nullable: true, description: 'Definition exponent (null = default 1.175)' }) coef!: number | null;
  @Field(() => RadarCategory, { nullable: true, description: "The chart's radar top category (the reference's radarTop)" }) radarTop!: RadarCategory | null;
}

@ObjectType('ScoreEntry', { description: "A player's best on one chart in one version, kept per field" })
export class ScoreEntryType extends ChartFields {
  @Field(() => String) version!: string;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none' }) bpi!: number | null;
  @Field(() => ClearLamp, { nullable: true }) clearLamp!: ClearLamp | null;
  @Field(() => String, { nullable: true, description: 'Lamp as the reference wire string ("HARD CLEAR")' }) clearState!: string | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Date, { description: 'Last improving play' }) playedAt!: Date;
  @Field(() => Int, { description: 'Play id of the best EX score' }) exScoreId!: number;
}

@ObjectType()
export class ScoreEntryConnection extends Connection(ScoreEntryType, 'ScoreEntry') {}

@ObjectType('Play', { implements: NodeInterface, description: 'One stored improving play (append-only)' })
export class PlayType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the play' }) id!: number;
  @Field(() => Int) chartId!: number;
  @Field(() => String) title!: string;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) level!: number;
  @Field(() => String) version!: string;
  @Field(() => String) batchId!: string;
  @Field(() => Int) exScore!: number;
  @Field(() => ClearLamp, { nullable: true }) clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI stored with the definition in force at import' }) bpi!: number | null;
  @Field(() => Date) playedAt!: Date;
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
}

@ObjectType('BestEverEntry', { description: 'Best EX score on a chart over all versions' })
export class BestEverEntryType extends ChartFields {
  @Field(() => Int) bestExScore!: number;
  @Field(() => Float, { nullable: true }) bestBpi!: number | null;
  @Field(() => String) bestVersion!: string;
}

@ObjectType('ScoreSnapshot')
export class ScoreSnapshotType {
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true }) bpi!: number | null;
  @Field(() => ClearLamp, { nullable: true }) clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Date, { nullable: true }) playedAt!: Date | null;
}

@ObjectType('VersionComparisonEntry')
export class VersionComparisonEntryType extends ChartFields {
  @Field(() => ScoreSnapshotType, { nullable: true }) current!: ScoreSnapshotType | null;
  @Field(() => ScoreSnapshotType, { nullable: true }) previous!: ScoreSnapshotType | null;
  @Field(() => Int, { nullable: true, description: 'current − previous EX; null when one side is missing (versionComparison, as the reference). In versionSummary: the current EX when there is no previous, 0 when no current' })
  exDiff!: number | null;
  @Field(() => Float, { nullable: true, description: 'current − previous BPI (a missing BPI counts as −15); null when one side is missing (versionComparison). In versionSummary: current + 15 when there is no previous, 0 when no current' })
  bpiDiff!: number | null;
}

@ObjectType('VersionPlays', { description: 'Value type: the stored plays of one chart in one version, newest first' })
export class VersionPlaysType {
  @Field(() => String, { description: 'Game version' }) version!: string;
  @Field(() => [PlayType], { description: 'Plays of that version, newest play first' }) plays!: PlayType[];
}

@ObjectType('UnplayedChart')
export class UnplayedChartType extends ChartFields {}

@ObjectType()
export class UnplayedChartConnection extends Connection(UnplayedChartType, 'UnplayedChart') {}

@ObjectType('ImportNotFound', { description: 'Value type: a row whose chart is neither in the catalogue nor learnable (the export names no level)' })
export class ImportNotFoundType {
  @Field(() => Int) line!: number;
  @Field(() => String) title!: string;
  @Field(() => PlayStyle, { description: 'Play style of the row' }) playStyle!: PlayStyle;
  @Field(() => String) difficulty!: string;
}

@ObjectType('ImportProblem')
export class ImportProblemType {
  @Field(() => Int) line!: number;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) difficulty?: string;
  @Field(() => String, { nullable: true }) column?: string;
  @Field(() => String, { nullable: true, description: 'The offending cell as written in the export' }) value?: string;
  @Field(() => String) reason!: string;
  @Field(() => String, { description: 'error (value dropped) or warning (row kept)' }) severity!: string;
}

@ObjectType('ImportScoresPayload')
export class ImportScoresPayload {
  @Field(() => ID, { nullable: true, description: 'The new batch; null when nothing improved' }) batchId!: string | null;
  @Field(() => Boolean, { description: 'Nothing improved: nothing was written' }) upToDate!: boolean;
  @Field(() => String) message!: string;
  @Field(() => String) format!: string;
  @Field(() => Int) rowCount!: number;
  @Field(() => Int, { description: 'Plays stored (all charts)' }) updatedCount!: number;
  @Field(() => Int, { description: 'Plays stored on charts with a BPI definition' }) bpiUpdatedCount!: number;
  @Field(() => Float) previousTotalBpi!: number;
  @Field(() => Float) newTotalBpi!: number;
  @Field(() => Int, { description: 'Charts present without a play (NO PLAY, zero score)' }) skipped!: number;
  @Field(() => [ImportNotFoundType]) notFound!: ImportNotFoundType[];
  @Field(() => [ImportProblemType]) problems!: ImportProblemType[];
  @Field(() => Int, { description: 'Charts the catalogue learned from this export (played charts not in the BPI definitions; stored without BPI)' })
  learnedCharts!: number;
}

@ObjectType('MigrateLegacyScoresPayload')
export class MigrateLegacyScoresPayload {
  @Field(() => [String]) importedVersions!: string[];
  @Field(() => Int, { description: 'Plays stored' }) totalProcessed!: number;
  @Field(() => Int) batchCount!: number;
  @Field(() => Int, { description: 'History entries whose chart is not in the catalogue' }) notFound!: number;
}
