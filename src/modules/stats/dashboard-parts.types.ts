/**
 * GraphQL types of the player dashboard's parts (`User.dashboard`): histograms, the AAA table, BPM
 * bands, totals and trend, radar, activity, box plots, arena trend, neighbours and the tower. The
 * numbers come from the pure calculators in src/domain/stats; these classes only describe them.
 */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { ArenaClass, Difficulty, RadarCategory, StatsPeriod } from '../shared/enums';
import { ChartType } from '../shared/chart.type';
import { RadarType } from './stats.types';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

// ───────────── dashboard ─────────────

@ObjectType('Dashboard', {
  description:
    "Value type: a player's stats dashboard in one version under the standard stats filter (levels, difficulties). Every field is computed on demand: " +
    "ask only for the parts you show; asking for all of them reads the player's bests and plays once per request.",
})
export class DashboardType {
  @Field(() => ID, { description: 'Id of the player the dashboard is about' }) userId!: string;
  @Field(() => GameVersionScalar, { description: 'Game version of the dashboard' }) version!: string;
  @Field(() => [Int], {
    nullable: true,
    description: 'Level filter in force (null: the default of each part, usually 11 and 12)',
  })
  levels!: number[] | null;
  @Field(() => [Difficulty], {
    nullable: true,
    description: 'Difficulty filter in force (null: HYPER, ANOTHER and LEGGENDARIA)',
  })
  difficulties!: Difficulty[] | null;
}

@ObjectType('HistogramBucket', {
  description: 'Value type: one bucket of a histogram, its bounds and how many charts fall in it',
})
export class HistogramBucketType {
  @Field(() => String, { description: 'Label of the bucket (e.g. "-10", "100+", "AAA", "MAX-")' }) label!: string;
  @Field(() => Float, { nullable: true, description: 'Lower bound, inclusive (null: open)' }) from!: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Upper bound, exclusive; for the last bucket of a closed scale inclusive (null: open)',
  })
  to!: number | null;
  @Field(() => Int, { description: 'Charts in the bucket' }) count!: number;
}

@ObjectType('Histogram', { description: "Value type: a distribution of the player's charts over ordered buckets" })
export class HistogramType {
  @Field(() => Int, { description: 'Charts counted (the sum of the bucket counts)' }) total!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Bucket width (BPI points or score-rate percent); null for DJ ranks',
  })
  step!: number | null;
  @Field(() => [HistogramBucketType], { description: 'Buckets in ascending order' }) buckets!: HistogramBucketType[];
}

@ObjectType('StatsSong', { description: "Value type: one chart behind a stats figure, with the player's best on it" })
export class StatsSongType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty of the chart' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level of the chart' }) level!: number;
  @Field(() => Int, { description: 'Notes of the chart' }) notes!: number;
  @Field(() => Int, { nullable: true, description: "The player's best EX score (null: not played)" }) exScore!:
    number | null;
  @Field(() => Float, { description: 'BPI of the best under the current definition (−15 when not played or none)' })
  bpi!: number;
}

@ObjectType('AaaTarget', {
  description: "Value type: an EX score border of a chart, its BPI, and how far the player's best is from it",
})
export class AaaTargetType {
  @Field(() => Int, { description: 'EX score of the border' }) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the border under the current definition (null: none)' })
  bpi!: number | null;
  @Field(() => Int, { description: "Player's best EX (0 when unplayed) minus the border: negative = EX still missing" })
  diff!: number;
  @Field(() => Boolean, { description: 'The best reaches the border' }) reached!: boolean;
}

@ObjectType('AaaRow', {
  description: "Value type: one chart of the AAA table with its AAA, MAX- (and custom) borders and the player's best",
})
export class AaaRowType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: 'Notes (of the current definition)' }) notes!: number;
  @Field(() => Int, { description: 'Maximum EX score (2 × notes)' }) maxScore!: number;
  @Field(() => AaaTargetType, { description: 'AAA border: ceil(8/9 of the maximum)' }) aaa!: AaaTargetType;
  @Field(() => AaaTargetType, { description: 'AA border: ceil(7/9 of the maximum)' }) aa!: AaaTargetType;
  @Field(() => AaaTargetType, { description: 'A border: ceil(6/9 of the maximum)' }) a!: AaaTargetType;
  @Field(() => AaaTargetType, { description: 'MAX- border: ceil(17/18 of the maximum)' }) maxMinus!: AaaTargetType;
  @Field(() => AaaTargetType, { nullable: true, description: 'The custom goal (null without customGoalRatio)' })
  custom!: AaaTargetType | null;
  @Field(() => Int, { nullable: true, description: "Player's best EX score (null: unplayed)" }) exScore!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI of the best under the current definition (null: unplayed)' })
  bpi!: number | null;
}

@ObjectType('AaaSummary', { description: 'Value type: how many charts of the AAA table reach each border' })
export class AaaSummaryType {
  @Field(() => Int, { description: 'Charts listed' }) charts!: number;
  @Field(() => Int, { description: 'Charts at AAA or better (MAX- included)' }) aaa!: number;
  @Field(() => Int, { description: 'Charts at MAX- or better' }) maxMinus!: number;
  @Field(() => Int, { nullable: true, description: 'Charts reaching the custom goal (null without one)' }) custom!:
    number | null;
}

@ObjectType('AaaTable', {
  description:
    'Value type: the AAA table (docs/domain/stats.md#aaa-table): every chart in scope available in the version',
})
export class AaaTableType {
  @Field(() => [AaaRowType], { description: 'Charts by level desc, then title' }) rows!: AaaRowType[];
  @Field(() => AaaSummaryType, { description: 'Counts over the rows' }) summary!: AaaSummaryType;
}

@ObjectType('BpmBand', {
  description: 'Value type: total BPI over the charts of one tempo band (docs/domain/stats.md#bpm-bands)',
})
export class BpmBandType {
  @Field(() => String, {
    description: 'Band: 200~, 180~200, 160~180, 140~160, 120~140, ~120, Soflan, or ? (no tempo known)',
  })
  label!: string;
  @Field(() => Float, { description: 'Total BPI of the band (unplayed charts count −15) over N = chartCount' })
  totalBpi!: number;
  @Field(() => Int, { description: 'N: charts in the band available in the version' }) chartCount!: number;
  @Field(() => Int, { description: 'Charts of the band the player has played' }) playedCount!: number;
  @Field(() => [StatsSongType], { description: "The band's charts by BPI desc" }) songs!: StatsSongType[];
}

@ObjectType('TotalBpiSummary', {
  description: 'Value type: total BPI now or at the end of a JST day, with the estimated rank, played count and N',
})
export class TotalBpiSummaryType {
  @Field(() => String, { nullable: true, description: 'The JST date the total is computed for (null: now)' }) asOf!:
    string | null;
  @Field(() => Float, { description: 'Total BPI over the N charts (unplayed = −15)' }) totalBpi!: number;
  @Field(() => Int, { description: 'Estimated rank among kaiden players: ceil(2699^((100 − total)/100))' })
  estimatedRank!: number;
  @Field(() => Int, { description: 'Charts of the set the player has played' }) playedCount!: number;
  @Field(() => Int, {
    description: "N: SP ☆12 charts with a current definition available in the version (the stored total's set)",
  })
  chartCount!: number;
}

@ObjectType('TrendUpdate', { description: 'Value type: one chart whose best EX rose on a trend point' })
export class TrendUpdateType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { nullable: true, description: 'Best EX before (null: first play)' }) prevExScore!: number | null;
  @Field(() => Int, { description: 'New best EX' }) newExScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI before (null: first play)' }) prevBpi!: number | null;
  @Field(() => Float, { description: 'New BPI (stored with the play; −15 when none)' }) newBpi!: number;
  @Field(() => Date, { description: 'When the play was made' }) playedAt!: Date;
}

@ObjectType('TrendPoint', {
  description: 'Value type: the total BPI at the end of a day / week / month and the charts updated in it',
})
export class TrendPointType {
  @Field(() => String, { description: 'JST date (day), Monday of the week, or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the period' }) totalBpi!: number;
  @Field(() => Int, { description: 'Charts of the scope played so far (cumulative)' }) playedCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Updates listed in this point' }) updatedCount!: number;
  @Field(() => [TrendUpdateType], {
    description: 'Charts updated in the period, in play order (a chart updated twice is listed twice)',
  })
  updates!: TrendUpdateType[];
}

@ObjectType('Trend', {
  description:
    'Value type: the total-BPI trend (docs/domain/stats.md#total-bpi-trend), one point per period from the first play to the last',
})
export class TrendType {
  @Field(() => StatsPeriod, { description: 'Unit of the points' }) groupBy!: StatsPeriod;
  @Field(() => Int, { description: 'N: charts the totals are computed over (levels default 12)' }) chartCount!: number;
  @Field(() => [TrendPointType], { description: 'Points, oldest first (periods without plays carry the total)' })
  points!: TrendPointType[];
}

@ObjectType('RadarCategoryStats', {
  description: 'Value type: one radar category, its total BPI and the charts behind it',
})
export class RadarCategoryStatsType {
  @Field(() => RadarCategory, { description: 'The category' }) category!: RadarCategory;
  @Field(() => Float, { description: 'Total BPI over played + unplayed-available charts (−15 when none played)' })
  totalBpi!: number;
  @Field(() => Int, { description: 'Charts played' }) playedCount!: number;
  @Field(() => Int, { description: 'N: played + unplayed charts of the category' }) chartCount!: number;
  @Field(() => [StatsSongType], { description: 'Every chart counted, by BPI desc' }) songs!: StatsSongType[];
}

@ObjectType('RadarStats', { description: 'Value type: the radar with filters and the songs per category' })
export class RadarStatsType {
  @Field(() => RadarType, { description: 'Total BPI per category' }) values!: RadarType;
  @Field(() => [RadarCategoryStatsType], {
    description: 'Categories in NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN order',
  })
  categories!: RadarCategoryStatsType[];
}

@ObjectType('ActivityDay', { description: 'Value type: one JST day with the number of distinct charts improved on it' })
export class ActivityDayType {
  @Field(() => GraphQLLocalDate, { description: 'JST date' }) date!: string;
  @Field(() => Int, { description: 'Distinct charts with a stored play (an improvement) that day' }) count!: number;
}

@ObjectType('ActivityCalendar', {
  description: 'Value type: the activity calendar and the level-12 active dates',
})
export class ActivityCalendarType {
  @Field(() => [ActivityDayType], { description: 'Days with activity, ascending' }) days!: ActivityDayType[];
  @Field(() => Int, { description: 'Days with activity' }) activeDays!: number;
  @Field(() => Int, { description: 'Sum of the day counts' }) chartDays!: number;
  @Field(() => [String], { description: 'Level-12 view: dates with at least one ☆12 chart improved, ascending' })
  activeDates!: string[];
}

@ObjectType('BoxPlotPoint', { description: 'Value type: the spread of the BPIs reached in one period' })
export class BoxPlotPointType {
  @Field(() => String, { description: 'JST date, the Sunday starting the week (JST), or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'Lowest BPI' }) min!: number;
  @Field(() => Float, { description: 'First quartile (linear interpolation)' }) p25!: number;
  @Field(() => Float, { description: 'Median' }) median!: number;
  @Field(() => Float, { description: 'Third quartile' }) p75!: number;
  @Field(() => Float, { description: 'Highest BPI' }) max!: number;
  @Field(() => Int, { description: 'Charts with a BPI in the period' }) count!: number;
  @Field(() => Float, { description: 'Total BPI over those charts (N = count)' }) totalBpi!: number;
  @Field(() => Float, { description: 'Total BPI without the lowest ⌊count/4⌋ charts' }) totalBpiTop75!: number;
  @Field(() => Float, { description: 'Total BPI without the lowest ⌊3·count/4⌋ charts' }) totalBpiTop25!: number;
  @Field(() => Int, { description: "Σ notes of the period's charts" }) registeredNotes!: number;
  @Field(() => Int, { description: "Σ keys + scratches of the period's tower days" }) totalPhysicalNotes!: number;
  @Field(() => Float, { description: 'min(100, registeredNotes / totalPhysicalNotes · 100); 0 without tower data' })
  efficiency!: number;
}

@ObjectType('ArenaTrendPoint', {
  description: 'Value type: the player in one official arena snapshot; class / ranks null when the owner hides them',
})
export class ArenaTrendPointType {
  @Field(() => Date, { description: 'When the snapshot was taken' }) fetchedAt!: Date;
  @Field(() => String, { description: 'JST date of the snapshot' }) date!: string;
  @Field(() => ArenaClass, { nullable: true, description: 'Arena class (null: hidden by showArenaClass)' })
  arenaClass!: ArenaClass | null;
  @Field(() => Int, { nullable: true, description: 'Rank within the class (null: unknown or hidden by showArenaRank)' })
  classRank!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Players of the same snapshot in better classes + classRank (null: unknown or hidden)',
  })
  globalRank!: number | null;
  @Field(() => GraphQLNonNegativeInt, { nullable: true, description: 'Players listed in the snapshot' }) players!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'Wins (null: unknown or hidden by showArenaRank)' }) wins!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'A1 streak (null: unknown or hidden by showArenaRank)' })
  a1Continue!: number | null;
}

@ObjectType('ArenaTrend', { description: 'Value type: the arena rank trend, oldest snapshot first' })
export class ArenaTrendType {
  @Field(() => [ArenaTrendPointType], { description: 'Snapshots holding the player, oldest first' })
  points!: ArenaTrendPointType[];
  @Field(() => ArenaTrendPointType, {
    nullable: true,
    description: 'Best point: best class, then best class rank, then earliest',
  })
  best!: ArenaTrendPointType | null;
}

@ObjectType('NeighbourItem', {
  description: 'Value type: one of my charts against the average of the players nearest my total BPI',
})
export class NeighbourItemType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: 'My best EX' }) exScore!: number;
  @Field(() => Float, { description: 'My BPI (current definition)' }) bpi!: number;
  @Field(() => Float, { description: 'Mean BPI of the neighbours who played the chart' }) neighborAvgBpi!: number;
  @Field(() => Int, { description: 'Neighbours in that mean (at least minimumPerChart)' }) neighborCount!: number;
  @Field(() => Float, { description: 'bpi − neighborAvgBpi' }) bpiDiff!: number;
}

@ObjectType('NeighbourList', { description: 'Value type: one page of neighbour recommendations' })
export class NeighbourListType {
  @Field(() => [NeighbourItemType], { description: 'The page' }) data!: NeighbourItemType[];
  @Field(() => Int, { description: 'Charts kept in all' }) total!: number;
}

@ObjectType('NeighbourRecommendations', {
  description:
    'Value type: charts where I am furthest above (weapons) and below (potential) the players nearest my total BPI. ' +
    'Only averages are shown, never who the neighbours are; with fewer than minimumNeighbors neighbours, or fewer than minimumPerChart on a chart, nothing (or that chart) is shown.',
})
export class NeighbourRecommendationsType {
  @Field(() => Float, { description: 'My stored total BPI (−15 without one)' }) myTotalBpi!: number;
  @Field(() => Int, { description: 'Neighbours used (0 when fewer than minimumNeighbors were found)' })
  usedNeighbors!: number;
  @Field(() => Int, { description: 'Neighbours needed before any average is shown' }) minimumNeighbors!: number;
  @Field(() => Int, { description: 'Neighbours needed on a chart before its average is shown' })
  minimumPerChart!: number;
  @Field(() => NeighbourListType, { description: 'Charts most above the neighbours' }) weapons!: NeighbourListType;
  @Field(() => NeighbourListType, { description: 'Charts most below the neighbours' }) potential!: NeighbourListType;
}

@ObjectType('TowerDay', { description: "Value type: one day of the game's key counter (IIDX TOWER)" })
export class TowerDayType {
  @Field(() => GraphQLLocalDate, { description: 'JST game date' }) playDate!: string;
  @Field(() => Int, { description: 'Keys pressed' }) keyCount!: number;
  @Field(() => Int, { description: 'Scratches' }) scratchCount!: number;
}

@ObjectType('TowerHistory', { description: "Value type: the player's key-counter days of a version" })
export class TowerHistoryType {
  @Field(() => [TowerDayType], { description: 'Days, newest first' }) days!: TowerDayType[];
  @Field(() => Int, { description: 'Σ keys' }) totalKeys!: number;
  @Field(() => Int, { description: 'Σ scratches' }) totalScratches!: number;
  @Field(() => Int, { description: 'Days with any count' }) playDays!: number;
}
