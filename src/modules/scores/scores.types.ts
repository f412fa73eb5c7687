import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { ClearLamp, Difficulty } from '../shared/enums';

/** Chart facts repeated on score entries (from the in-memory catalogue, current definition). */
@ObjectType()
export abstract class ChartFields {
  @Field(() => Int) chartId!: number;
  @Field(() => Int) songId!: number;
  @Field(() => String) title!: string;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) level!: number;
  @Field(() => Int) notes!: number;
  @Field(() => String) bpm!: string;
  @Field(() => Int, { nullable: true }) releasedVersion!: number | null;
  @Field(() => Int, { nullable: true, description: 'World-record EX score of the current definition' }) wrScore!: number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score of the current definition' }) kaidenAvg!: number | null;
  @Field(() => Float, { nullable: true, description: 'Definition exponent (null = default 1.175)' }) coef!: number | null;
}

@ObjectType('ScoreEntry', { description: "A player's best on one chart in one version, kept per field" })
export class ScoreEntryType extends ChartFields {
  @Field(() => String) version!: string;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the best EX score (current definition; null without one)' }) bpi!: number | null;
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
  @Field(() => Int, { description: 'current − previous EX (current EX when no previous; 0 when no current)' }) exDiff!: number;
  @Field(() => Float, { description: 'current − previous BPI, -15 for a missing BPI' }) bpiDiff!: number;
}

@ObjectType('UnplayedChart')
export class UnplayedChartType extends ChartFields {}

@ObjectType()
export class UnplayedChartConnection extends Connection(UnplayedChartType, 'UnplayedChart') {}

@ObjectType('ImportNotFound')
export class ImportNotFoundType {
  @Field(() => Int) line!: number;
  @Field(() => String) title!: string;
  @Field(() => String) difficulty!: string;
}

@ObjectType('ImportProblem')
export class ImportProblemType {
  @Field(() => Int) line!: number;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) difficulty?: string;
  @Field(() => String, { nullable: true }) column?: string;
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
}

@ObjectType('MigrateLegacyScoresPayload')
export class MigrateLegacyScoresPayload {
  @Field(() => [String]) importedVersions!: string[];
  @Field(() => Int, { description: 'Plays stored' }) totalProcessed!: number;
  @Field(() => Int) batchCount!: number;
  @Field(() => Int, { description: 'History entries whose chart is not in the catalogue' }) notFound!: number;
}
