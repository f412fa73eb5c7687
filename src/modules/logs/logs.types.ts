import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { GraphQLUUID } from 'graphql-scalars';
import { ChartFields, PlayType, ScoreSnapshotType, VersionComparisonEntryType } from '../scores/scores.types';

@ObjectType('Batch', { implements: NodeInterface, description: 'One import (all its plays committed together)' })
export class BatchType {
  @Field(() => GraphQLUUID, { name: 'databaseId', description: 'Database id of the batch (a UUID; the `batchId` of other types and arguments)' }) id!: string;
  @Field(() => String) version!: string;
  @Field(() => String, { description: 'ROWS, OFFICIAL_CSV, REFLUX, DAKEN_COUNTER, RESULT_TECHO or TRANSFER' }) source!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Int) rowCount!: number;
  @Field(() => Int, { description: 'Plays stored in this batch' }) songCount!: number;
  @Field(() => Int) bpiUpdatedCount!: number;
  @Field(() => Float) previousTotalBpi!: number;
  @Field(() => Float, { description: 'Total BPI right after this batch' }) totalBpi!: number;
  @Field(() => Float) diff!: number;
  @Field(() => [PlayType], { description: 'Up to topN (default 5) plays of the batch, highest BPI first' }) topScores!: PlayType[];
}

@ObjectType()
export class BatchConnection extends Connection(BatchType, 'Batch') {}

@ObjectType('PlayDay', { description: 'One JST play day: total BPI after the plays of that day' })
export class PlayDayType {
  @Field(() => ID, { description: 'YYYY-MM-DD (JST)' }) id!: string;
  @Field(() => String) date!: string;
  @Field(() => Float) totalBpi!: number;
  @Field(() => Int) songCount!: number;
  @Field(() => Float) diff!: number;
  @Field(() => Date, { description: 'Last play of the day' }) createdAt!: Date;
  @Field(() => [PlayType]) topScores!: PlayType[];
}

@ObjectType()
export class PlayDayConnection extends Connection(PlayDayType, 'PlayDay') {}

@ObjectType('OvertakenRival')
export class OvertakenRivalType {
  @Field(() => ID) rivalUserId!: string;
  @Field(() => String) rivalName!: string;
  @Field(() => Int) rivalScore!: number;
  @Field(() => Int) myNewScore!: number;
  @Field(() => Int, { nullable: true }) myOldScore!: number | null;
}

@ObjectType('RivalRankInfo', { description: 'Value type: my rank on a chart among the players I follow and may see, before and after a batch (counts only: no rival is named)' })
export class RivalRankInfoType {
  @Field(() => Int, { description: '1 + followed players strictly above my previous best (followed players + 1 without one)' }) myRankBefore!: number;
  @Field(() => Int, { description: '1 + followed players strictly above my new best' }) myRankAfter!: number;
  @Field(() => Int, { description: 'Followed players (public, or approved) with a best on the chart in the version, their current bests' }) totalRivals!: number;
}

@ObjectType('BatchRef', { description: 'Value type: a batch named for navigation' })
export class BatchRefType {
  @Field(() => ID, { description: 'Batch id' }) id!: string;
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
  @Field(() => Float, { description: 'Total BPI right after the batch' }) totalBpi!: number;
}

@ObjectType('PeriodLink', { description: 'Value type: the neighbouring activity of a period (previous / next navigation)' })
export class PeriodLinkType {
  @Field(() => String, { description: 'JST date (YYYY-MM-DD) of that batch or play day: pass it as scoreDetails(date:) to go there' }) date!: string;
  @Field(() => Date, { description: 'Import time of the batch, or the last play of the day' }) createdAt!: Date;
  @Field(() => Float, { description: 'Total BPI after that batch or play day' }) totalBpi!: number;
  @Field(() => ID, { nullable: true, description: 'The batch (groupedBy createdAt); null for play days' }) batchId!: string | null;
}

@ObjectType('BatchScoreEntry', { description: 'A chart improved in a batch or period: best after vs before' })
export class BatchScoreEntryType extends ChartFields {
  @Field(() => ScoreSnapshotType) current!: ScoreSnapshotType;
  @Field(() => ScoreSnapshotType, { nullable: true }) previous!: ScoreSnapshotType | null;
  @Field(() => Int) exDiff!: number;
  @Field(() => Float, { description: 'BPI difference (-15 for a missing BPI)' }) bpiDiff!: number;
  @Field(() => [OvertakenRivalType], { description: 'Followed rivals passed (only shown to the owner)' }) overtaken!: OvertakenRivalType[];
  @Field(() => RivalRankInfoType, { nullable: true, description: 'My rank among followed players before and after (batch only; null when no followed player has played the chart)' })
  rivalRankInfo!: RivalRankInfoType | null;
}

@ObjectType('RivalOvertakenSummary')
export class RivalOvertakenSummaryType {
  @Field(() => ID) rivalUserId!: string;
  @Field(() => String) rivalName!: string;
  @Field(() => Int, { description: 'Charts on which this rival was passed' }) count!: number;
}

@ObjectType('BatchDetail')
export class BatchDetailType {
  @Field(() => ID) id!: string;
  @Field(() => String) version!: string;
  @Field(() => String) source!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Float) previousTotalBpi!: number;
  @Field(() => Float) totalBpi!: number;
  @Field(() => [BatchScoreEntryType]) scores!: BatchScoreEntryType[];
  @Field(() => [RivalOvertakenSummaryType]) rivalsOvertaken!: RivalOvertakenSummaryType[];
  @Field(() => ID, { nullable: true }) prevBatchId!: string | null;
  @Field(() => ID, { nullable: true }) nextBatchId!: string | null;
  @Field(() => BatchRefType, { nullable: true, description: 'The batch before this one (same version)' }) prevBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: 'The batch after this one (same version)' }) nextBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: "The last batch before this batch's JST day" }) prevDayBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: "The first batch after this batch's JST day" }) nextDayBatch!: BatchRefType | null;
  @Field(() => [BatchRefType], { description: "Every batch of this batch's JST day (this one included), oldest first" }) dayBatches!: BatchRefType[];
}

@ObjectType('ScoreDetails', { description: 'Improvements of a day, week or month' })
export class ScoreDetailsType {
  @Field(() => Date) start!: Date;
  @Field(() => Date) end!: Date;
  @Field(() => String) unit!: string;
  @Field(() => String) groupedBy!: string;
  @Field(() => String) label!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the period' }) totalBpi!: number;
  @Field(() => Int, { description: 'Batches in the period (groupedBy createdAt)' }) batchCount!: number;
  @Field(() => [BatchScoreEntryType]) scores!: BatchScoreEntryType[];
  @Field(() => PeriodLinkType, { nullable: true, description: 'The nearest activity before the period (null: none)' }) previous!: PeriodLinkType | null;
  @Field(() => PeriodLinkType, { nullable: true, description: 'The nearest activity after the period (null: none)' }) next!: PeriodLinkType | null;
}

@ObjectType('VersionSummary')
export class VersionSummaryType {
  @Field(() => String) currentVersion!: string;
  @Field(() => String, { nullable: true }) compareVersion!: string | null;
  @Field(() => String, { nullable: true }) compareVersionLabel!: string | null;
  @Field(() => [VersionComparisonEntryType]) entries!: VersionComparisonEntryType[];
}

@ObjectType('DeleteBatchPayload')
export class DeleteBatchPayload {
  @Field(() => ID) batchId!: string;
  @Field(() => String) version!: string;
  @Field(() => String) message!: string;
}
