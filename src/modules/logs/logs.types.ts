import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { GraphQLUUID } from 'graphql-scalars';
import { ChartFields, PlayType, ScoreSnapshotType, VersionComparisonEntryType } from '../scores/scores.types';
import { GameVersionScalar } from '../../graphql/scalars';
import { ImportSource, StatsPeriod, TimeBasis } from '../shared/enums';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

@ObjectType('Batch', { implements: NodeInterface, description: 'One import (all its plays committed together)' })
export class BatchType {
  @Field(() => GraphQLUUID, {
    name: 'databaseId',
    description: 'Database id of the batch (a UUID; the `batchId` of other types and arguments)',
  })
  id!: string;
  @Field(() => GameVersionScalar, { description: 'Game version of the import' }) version!: string;
  @Field(() => ImportSource, { description: 'Export format the batch was read from' }) source!: ImportSource;
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
  @Field(() => GraphQLNonNegativeInt, { description: 'Rows read from the export' }) rowCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Plays stored in this batch' }) songCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Plays stored on charts with a BPI definition' })
  bpiUpdatedCount!: number;
  @Field(() => Float, { description: 'Total BPI right before this batch' }) previousTotalBpi!: number;
  @Field(() => Float, { description: 'Total BPI right after this batch' }) totalBpi!: number;
  @Field(() => Float, { description: 'totalBpi − previousTotalBpi' }) diff!: number;
  @Field(() => [PlayType], { description: 'Up to topN (default 5) plays of the batch, highest BPI first' })
  topScores!: PlayType[];
}

@ObjectType({ description: "A page of a player's import batches, newest first" })
export class BatchConnection extends Connection(BatchType, 'Batch') {}

@ObjectType('PlayDay', {
  implements: NodeInterface,
  description:
    'One JST play day of a player in a version: total BPI after the plays of that day (a Node: its global id names the player, the version and the day)',
})
export class PlayDayType {
  // id: the global id (Node; key userId:version:date — logs.nodes.ts); the day itself is `date`
  @Field(() => GraphQLLocalDate, { description: 'The JST day' }) date!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the day' }) totalBpi!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Plays stored that day' }) songCount!: number;
  @Field(() => Float, { description: 'Total BPI change over the day' }) diff!: number;
  @Field(() => Date, { description: 'Last play of the day' }) createdAt!: Date;
  @Field(() => [PlayType], { description: 'Up to topN (default 5) plays of the day, highest BPI first' })
  topScores!: PlayType[];
}

@ObjectType({ description: "A page of a player's play days, newest first" })
export class PlayDayConnection extends Connection(PlayDayType, 'PlayDay') {}

@ObjectType('OvertakenRival', { description: 'Value type: a followed rival passed on a chart by a new best' })
export class OvertakenRivalType {
  @Field(() => ID, { description: "The rival's database id" }) rivalUserId!: string;
  @Field(() => String, { description: "The rival's user name" }) rivalName!: string;
  @Field(() => Int, { description: "The rival's best EX score on the chart" }) rivalScore!: number;
  @Field(() => Int, { description: "My new EX score (above the rival's)" }) myNewScore!: number;
  @Field(() => Int, { nullable: true, description: "My previous EX score (at most the rival's); null when I had none" })
  myOldScore!: number | null;
}

@ObjectType('RivalRankInfo', {
  description:
    'Value type: my rank on a chart among the players I follow and may see, before and after a batch or a period (counts only: no rival is named)',
})
export class RivalRankInfoType {
  @Field(() => Int, {
    description: '1 + followed players strictly above my previous best (followed players + 1 without one)',
  })
  myRankBefore!: number;
  @Field(() => Int, { description: '1 + followed players strictly above my new best' }) myRankAfter!: number;
  @Field(() => Int, {
    description: 'Followed players (public, or approved) with a best on the chart in the version, their current bests',
  })
  totalRivals!: number;
}

@ObjectType('BatchRef', { description: 'Value type: a batch named for navigation' })
export class BatchRefType {
  // id (the Batch's global id: node(id:) gives the Batch, batch(id:) accepts it) and databaseId: logs.resolver.ts BatchRefResolver
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
  @Field(() => Float, { description: 'Total BPI right after the batch' }) totalBpi!: number;
}

@ObjectType('PeriodLink', {
  description: 'Value type: the neighbouring activity of a period (previous / next navigation)',
})
export class PeriodLinkType {
  @Field(() => GraphQLLocalDate, {
    description: 'JST date of that batch or play day: pass it as scoreDetails(date:) to go there',
  })
  date!: string;
  @Field(() => Date, { description: 'Import time of the batch, or the last play of the day' }) createdAt!: Date;
  @Field(() => Float, { description: 'Total BPI after that batch or play day' }) totalBpi!: number;
  @Field(() => ID, { nullable: true, description: 'The batch (groupedBy createdAt); null for play days' }) batchId!:
    string | null;
}

@ObjectType('BatchScoreEntry', {
  description: 'Value type: a chart improved in a batch or period: best after vs before',
})
export class BatchScoreEntryType extends ChartFields {
  @Field(() => ScoreSnapshotType, { description: 'The best after the batch or period' }) current!: ScoreSnapshotType;
  @Field(() => ScoreSnapshotType, {
    nullable: true,
    description: 'The best before; null when the chart was not played before',
  })
  previous!: ScoreSnapshotType | null;
  @Field(() => Int, { description: 'current − previous EX score (the current EX when there is no previous)' })
  exDiff!: number;
  @Field(() => Float, { description: 'BPI difference (-15 for a missing BPI)' }) bpiDiff!: number;
  @Field(() => [OvertakenRivalType], { description: 'Followed rivals passed (only shown to the owner)' })
  overtaken!: OvertakenRivalType[];
  @Field(() => RivalRankInfoType, {
    nullable: true,
    description:
      'My rank among followed players before and after the batch or period (null when no followed player has played the chart)',
  })
  rivalRankInfo!: RivalRankInfoType | null;
}

@ObjectType('RivalOvertakenSummary', {
  description: 'Value type: a followed rival passed in a batch, and on how many charts',
})
export class RivalOvertakenSummaryType {
  @Field(() => ID, { description: "The rival's database id" }) rivalUserId!: string;
  @Field(() => String, { description: "The rival's user name" }) rivalName!: string;
  @Field(() => Int, { description: 'Charts on which this rival was passed' }) count!: number;
}

@ObjectType('BatchDetail', {
  implements: NodeInterface,
  description: 'One import batch in detail: every chart it improved, the rivals passed, and the neighbouring batches',
})
export class BatchDetailType {
  @Field(() => GraphQLUUID, {
    name: 'databaseId',
    description: 'Database id of the batch (a UUID; the Batch with this databaseId)',
  })
  id!: string;
  @Field(() => GameVersionScalar, { description: 'Game version of the import' }) version!: string;
  @Field(() => ImportSource, { description: 'Export format the batch was read from' }) source!: ImportSource;
  @Field(() => Date, { description: 'Import time' }) createdAt!: Date;
  @Field(() => Float, { description: 'Total BPI right before this batch' }) previousTotalBpi!: number;
  @Field(() => Float, { description: 'Total BPI right after this batch' }) totalBpi!: number;
  @Field(() => [BatchScoreEntryType], {
    description: 'The plays of the batch, one per chart, with the best they replaced',
  })
  scores!: BatchScoreEntryType[];
  @Field(() => [RivalOvertakenSummaryType], {
    description: 'Followed rivals passed on at least one chart, with how many (owner only; empty for others)',
  })
  rivalsOvertaken!: RivalOvertakenSummaryType[];
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the batch before this one (same version); null for the first',
  })
  prevBatchId!: string | null;
  @Field(() => ID, { nullable: true, description: 'Id of the batch after this one (same version); null for the last' })
  nextBatchId!: string | null;
  @Field(() => BatchRefType, { nullable: true, description: 'The batch before this one (same version)' })
  prevBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: 'The batch after this one (same version)' })
  nextBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: "The last batch before this batch's JST day" })
  prevDayBatch!: BatchRefType | null;
  @Field(() => BatchRefType, { nullable: true, description: "The first batch after this batch's JST day" })
  nextDayBatch!: BatchRefType | null;
  @Field(() => [BatchRefType], { description: "Every batch of this batch's JST day (this one included), oldest first" })
  dayBatches!: BatchRefType[];
}

@ObjectType('ScoreDetails', { description: 'Value type: improvements of a day, week or month' })
export class ScoreDetailsType {
  @Field(() => Date, { description: 'First instant of the period (JST midnight)' }) start!: Date;
  @Field(() => Date, { description: 'Last instant of the period' }) end!: Date;
  @Field(() => StatsPeriod, {
    description: 'Length of the period: a JST day, an ISO week (Monday–Sunday) or a calendar month',
  })
  period!: StatsPeriod;
  @Field(() => TimeBasis, { description: 'Which time of a play placed it in the period' }) basis!: TimeBasis;
  @Field(() => String, {
    description: 'day, week or month (the value of period, lower case)',
    deprecationReason: 'Use period (an enum); removed in the next release',
  })
  unit!: string;
  @Field(() => String, {
    description: 'createdAt (import time) or playedAt (play time)',
    deprecationReason: 'Use basis (an enum); removed in the next release',
  })
  groupedBy!: string;
  @Field(() => String, { description: 'The date asked for (YYYY-MM-DD)' }) label!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the period' }) totalBpi!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Batches in the period (groupedBy createdAt)' })
  batchCount!: number;
  @Field(() => [BatchScoreEntryType], {
    description: 'The plays of that day, one per chart, with the best they replaced',
  })
  scores!: BatchScoreEntryType[];
  @Field(() => PeriodLinkType, { nullable: true, description: 'The nearest activity before the period (null: none)' })
  previous!: PeriodLinkType | null;
  @Field(() => PeriodLinkType, { nullable: true, description: 'The nearest activity after the period (null: none)' })
  next!: PeriodLinkType | null;
}

@ObjectType('VersionSummary', { description: "Value type: every chart's best in one version next to another version" })
export class VersionSummaryType {
  @Field(() => GameVersionScalar, { description: 'The version summarised' }) currentVersion!: string;
  @Field(() => GameVersionScalar, {
    nullable: true,
    description: 'The version compared with (the previous one played); null when none',
  })
  compareVersion!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Display name of compareVersion (e.g. "Pinky Crush"); null when none',
  })
  compareVersionLabel!: string | null;
  @Field(() => [VersionComparisonEntryType], { description: 'One entry per chart played in either version' })
  entries!: VersionComparisonEntryType[];
}

@ObjectType('DeleteBatchPayload', { description: 'What deleting a batch did' })
export class DeleteBatchPayload {
  @Field(() => ID, { description: "The deleted batch's id" }) batchId!: string;
  @Field(() => GameVersionScalar, {
    description: 'Game version of the deleted batch (its bests and totals were rebuilt)',
  })
  version!: string;
  @Field(() => String, { description: 'A one-line summary for the user' }) message!: string;
}

@ObjectType('BatchCard', {
  description:
    "Value type: an import batch's share card, the SVG that GET /api/v1/batches/{batchId}/card.png rasterises (docs/portability.md)",
})
export class BatchCardType {
  @Field(() => Boolean, { description: "Whether the batch's player is public (the PNG's Cache-Control)" })
  isPublic!: boolean;
  @Field(() => String, {
    description:
      '1200×630 SVG: the player, the version, the import time, total BPI before → after, the best plays (up to 6)',
  })
  svg!: string;
}
