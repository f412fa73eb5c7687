/**
 * GraphQL types of the player dashboard (`User.dashboard`, domain-stats §0.5, §3) and of the
 * cross-player stats (tower ranking, radar ranking, site summary). The numbers come from the pure
 * calculators in src/domain/stats; these classes only describe them.
 */
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { Connection } from '../../graphql/connection';
import { ArenaClass, Difficulty, RadarCategory, StatsPeriod } from '../shared/enums';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';
import { RadarType } from './stats.types';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

// StatsPeriod is shared (logs' scoreDetails uses it too): ../shared/enums
export { StatsPeriod };

export enum ChartTheme {
  LIGHT = 'light',
  DARK = 'dark',
}
registerEnumType(ChartTheme, {
  name: 'ChartTheme',
  description: 'Colour scheme of an SVG chart picture',
  valuesConfig: { LIGHT: { description: 'Dark text on a white background' }, DARK: { description: 'Light text on a dark background' } },
});

// ───────────── dashboard ─────────────

@ObjectType('Dashboard', {
  description:
    'Value type: a player\'s stats dashboard in one version under the standard stats filter (levels, difficulties). Every field is computed on demand: ' +
    'ask only for the parts you show; asking for all of them reads the player\'s bests and plays once per request.',
})
export class DashboardType {
  @Field(() => ID, { description: 'Id of the player the dashboard is about' }) userId!: string;
  @Field(() => GameVersionScalar, { description: 'Game version of the dashboard' }) version!: string;
  @Field(() => [Int], { nullable: true, description: 'Level filter in force (null: the default of each part, usually 11 and 12)' }) levels!: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'Difficulty filter in force (null: HYPER, ANOTHER and LEGGENDARIA)' }) difficulties!: Difficulty[] | null;
}

@ObjectType('HistogramBucket', { description: 'Value type: one bucket of a histogram, its bounds and how many charts fall in it' })
export class HistogramBucketType {
  @Field(() => String, { description: 'Label of the bucket (e.g. "-10", "100+", "AAA", "MAX-")' }) label!: string;
  @Field(() => Float, { nullable: true, description: 'Lower bound, inclusive (null: open)' }) from!: number | null;
  @Field(() => Float, { nullable: true, description: 'Upper bound, exclusive; for the last bucket of a closed scale inclusive (null: open)' }) to!: number | null;
  @Field(() => Int, { description: 'Charts in the bucket' }) count!: number;
}

@ObjectType('Histogram', { description: 'Value type: a distribution of the player\'s charts over ordered buckets' })
export class HistogramType {
  @Field(() => Int, { description: 'Charts counted (the sum of the bucket counts)' }) total!: number;
  @Field(() => Int, { nullable: true, description: 'Bucket width (BPI points or score-rate percent); null for DJ ranks' }) step!: number | null;
  @Field(() => [HistogramBucketType], { description: 'Buckets in ascending order' }) buckets!: HistogramBucketType[];
}

@ObjectType('StatsSong', { description: 'Value type: one chart behind a stats figure, with the player\'s best on it' })
export class StatsSongType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty of the chart' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level of the chart' }) level!: number;
  @Field(() => Int, { description: 'Notes of the chart' }) notes!: number;
  @Field(() => Int, { nullable: true, description: 'The player\'s best EX score (null: not played)' }) exScore!: number | null;
  @Field(() => Float, { description: 'BPI of the best under the current definition (−15 when not played or none)' }) bpi!: number;
}

@ObjectType('AaaTarget', { description: 'Value type: an EX score border of a chart, its BPI, and how far the player\'s best is from it' })
export class AaaTargetType {
  @Field(() => Int, { description: 'EX score of the border' }) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the border under the current definition (null: none)' }) bpi!: number | null;
  @Field(() => Int, { description: 'Player\'s best EX (0 when unplayed) minus the border: negative = EX still missing' }) diff!: number;
  @Field(() => Boolean, { description: 'The best reaches the border' }) reached!: boolean;
}

@ObjectType('AaaRow', { description: 'Value type: one chart of the AAA table with its AAA, MAX- (and custom) borders and the player\'s best' })
export class AaaRowType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: 'Notes (of the current definition)' }) notes!: number;
  @Field(() => Int, { description: 'Maximum EX score (2 × notes)' }) maxScore!: number;
  @Field(() => AaaTargetType, { description: 'AAA border: ceil(8/9 of the maximum)' }) aaa!: AaaTargetType;
  @Field(() => AaaTargetType, { description: 'MAX- border: ceil(17/18 of the maximum)' }) maxMinus!: AaaTargetType;
  @Field(() => AaaTargetType, { nullable: true, description: 'The custom goal (null without customGoalRatio)' }) custom!: AaaTargetType | null;
  @Field(() => Int, { nullable: true, description: 'Player\'s best EX score (null: unplayed)' }) exScore!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI of the best under the current definition (null: unplayed)' }) bpi!: number | null;
}

@ObjectType('AaaSummary', { description: 'Value type: how many charts of the AAA table reach each border' })
export class AaaSummaryType {
  @Field(() => Int, { description: 'Charts listed' }) charts!: number;
  @Field(() => Int, { description: 'Charts at AAA or better (MAX- included)' }) aaa!: number;
  @Field(() => Int, { description: 'Charts at MAX- or better' }) maxMinus!: number;
  @Field(() => Int, { nullable: true, description: 'Charts reaching the custom goal (null without one)' }) custom!: number | null;
}

@ObjectType('AaaTable', { description: 'Value type: the AAA table (domain-stats §3.10): every chart in scope available in the version' })
export class AaaTableType {
  @Field(() => [AaaRowType], { description: 'Charts by level desc, then title' }) rows!: AaaRowType[];
  @Field(() => AaaSummaryType, { description: 'Counts over the rows' }) summary!: AaaSummaryType;
}

@ObjectType('BpmBand', { description: 'Value type: total BPI over the charts of one tempo band (domain-stats §3.11)' })
export class BpmBandType {
  @Field(() => String, { description: 'Band: 200~, 180~200, 160~180, 140~160, 120~140, ~120, Soflan, or ? (no tempo known)' }) label!: string;
  @Field(() => Float, { description: 'Total BPI of the band (unplayed charts count −15) over N = chartCount' }) totalBpi!: number;
  @Field(() => Int, { description: 'N: charts in the band available in the version' }) chartCount!: number;
  @Field(() => Int, { description: 'Charts of the band the player has played' }) playedCount!: number;
  @Field(() => [StatsSongType], { description: 'The band\'s charts by BPI desc' }) songs!: StatsSongType[];
}

@ObjectType('TotalBpiSummary', { description: 'Value type: total BPI now or at the end of a JST day, with the estimated rank, played count and N (§3.12, §1.6)' })
export class TotalBpiSummaryType {
  @Field(() => String, { nullable: true, description: 'The JST date the total is computed for (null: now)' }) asOf!: string | null;
  @Field(() => Float, { description: 'Total BPI over the N charts (unplayed = −15)' }) totalBpi!: number;
  @Field(() => Int, { description: 'Estimated rank among kaiden players: ceil(2699^((100 − total)/100))' }) estimatedRank!: number;
  @Field(() => Int, { description: 'Charts of the set the player has played' }) playedCount!: number;
  @Field(() => Int, { description: 'N: SP ☆12 charts with a current definition available in the version (the stored total\'s set)' }) chartCount!: number;
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

@ObjectType('TrendPoint', { description: 'Value type: the total BPI at the end of a day / week / month and the charts updated in it' })
export class TrendPointType {
  @Field(() => String, { description: 'JST date (day), Monday of the week, or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the period' }) totalBpi!: number;
  @Field(() => Int, { description: 'Charts of the scope played so far (cumulative)' }) playedCount!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Updates listed in this point' }) updatedCount!: number;
  @Field(() => [TrendUpdateType], { description: 'Charts updated in the period, in play order (a chart updated twice is listed twice)' }) updates!: TrendUpdateType[];
}

@ObjectType('Trend', { description: 'Value type: the total-BPI trend (domain-stats §3.1), one point per period from the first play to the last' })
export class TrendType {
  @Field(() => StatsPeriod, { description: 'Unit of the points' }) groupBy!: StatsPeriod;
  @Field(() => Int, { description: 'N: charts the totals are computed over (levels default 12)' }) chartCount!: number;
  @Field(() => [TrendPointType], { description: 'Points, oldest first (periods without plays carry the total)' }) points!: TrendPointType[];
}

@ObjectType('RadarCategoryStats', { description: 'Value type: one radar category, its total BPI and the charts behind it' })
export class RadarCategoryStatsType {
  @Field(() => RadarCategory, { description: 'The category' }) category!: RadarCategory;
  @Field(() => Float, { description: 'Total BPI over played + unplayed-available charts (−15 when none played)' }) totalBpi!: number;
  @Field(() => Int, { description: 'Charts played' }) playedCount!: number;
  @Field(() => Int, { description: 'N: played + unplayed charts of the category' }) chartCount!: number;
  @Field(() => [StatsSongType], { description: 'Every chart counted, by BPI desc' }) songs!: StatsSongType[];
}

@ObjectType('RadarStats', { description: 'Value type: the radar with filters and the songs per category (§3.5)' })
export class RadarStatsType {
  @Field(() => RadarType, { description: 'Total BPI per category' }) values!: RadarType;
  @Field(() => [RadarCategoryStatsType], { description: 'Categories in NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN order' }) categories!: RadarCategoryStatsType[];
}

@ObjectType('ActivityDay', { description: 'Value type: one JST day with the number of distinct charts improved on it' })
export class ActivityDayType {
  @Field(() => GraphQLLocalDate, { description: 'JST date' }) date!: string;
  @Field(() => Int, { description: 'Distinct charts with a stored play (an improvement) that day' }) count!: number;
}

@ObjectType('ActivityCalendar', { description: 'Value type: the activity calendar (§3.6) and the level-12 active dates (§3.7)' })
export class ActivityCalendarType {
  @Field(() => [ActivityDayType], { description: 'Days with activity, ascending' }) days!: ActivityDayType[];
  @Field(() => Int, { description: 'Days with activity' }) activeDays!: number;
  @Field(() => Int, { description: 'Sum of the day counts' }) chartDays!: number;
  @Field(() => [String], { description: 'Level-12 view: dates with at least one ☆12 chart improved, ascending' }) activeDates!: string[];
}

@ObjectType('BoxPlotPoint', { description: 'Value type: the spread of the BPIs reached in one period (§3.16)' })
export class BoxPlotPointType {
  @Field(() => String, { description: 'JST date, Monday of the week, or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'Lowest BPI' }) min!: number;
  @Field(() => Float, { description: 'First quartile (linear interpolation)' }) p25!: number;
  @Field(() => Float, { description: 'Median' }) median!: number;
  @Field(() => Float, { description: 'Third quartile' }) p75!: number;
  @Field(() => Float, { description: 'Highest BPI' }) max!: number;
  @Field(() => Int, { description: 'Charts with a BPI in the period' }) count!: number;
  @Field(() => Float, { description: 'Total BPI over those charts (N = count)' }) totalBpi!: number;
  @Field(() => Float, { description: 'Total BPI without the lowest ⌊count/4⌋ charts' }) totalBpiTop75!: number;
  @Field(() => Float, { description: 'Total BPI without the lowest ⌊3·count/4⌋ charts' }) totalBpiTop25!: number;
  @Field(() => Int, { description: 'Σ notes of the period\'s charts' }) registeredNotes!: number;
  @Field(() => Int, { description: 'Σ keys + scratches of the period\'s tower days' }) totalPhysicalNotes!: number;
  @Field(() => Float, { description: 'min(100, registeredNotes / totalPhysicalNotes · 100); 0 without tower data' }) efficiency!: number;
}

@ObjectType('ArenaTrendPoint', { description: 'Value type: the player in one official arena snapshot (§3.14); class / ranks null when the owner hides them' })
export class ArenaTrendPointType {
  @Field(() => Date, { description: 'When the snapshot was taken' }) fetchedAt!: Date;
  @Field(() => String, { description: 'JST date of the snapshot' }) date!: string;
  @Field(() => ArenaClass, { nullable: true, description: 'Arena class (null: hidden by showArenaClass)' }) arenaClass!: ArenaClass | null;
  @Field(() => Int, { nullable: true, description: 'Rank within the class (null: unknown or hidden by showArenaRank)' }) classRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Players of the same snapshot in better classes + classRank (null: unknown or hidden)' }) globalRank!: number | null;
  @Field(() => GraphQLNonNegativeInt, { nullable: true, description: 'Players listed in the snapshot' }) players!: number | null;
  @Field(() => Int, { nullable: true, description: 'Wins (null: unknown or hidden by showArenaRank)' }) wins!: number | null;
  @Field(() => Int, { nullable: true, description: 'A1 streak (null: unknown or hidden by showArenaRank)' }) a1Continue!: number | null;
}

@ObjectType('ArenaTrend', { description: 'Value type: the arena rank trend, oldest snapshot first' })
export class ArenaTrendType {
  @Field(() => [ArenaTrendPointType], { description: 'Snapshots holding the player, oldest first' }) points!: ArenaTrendPointType[];
  @Field(() => ArenaTrendPointType, { nullable: true, description: 'Best point: best class, then best class rank, then earliest' }) best!: ArenaTrendPointType | null;
}

@ObjectType('ReviewPeriods', { description: 'Value type: months and years with plays, for the reviews (§3.15)' })
export class ReviewPeriodsType {
  @Field(() => [String], { description: 'YYYY-MM, newest first' }) months!: string[];
  @Field(() => [String], { description: 'YYYY, newest first' }) years!: string[];
}

@ObjectType('HistoryPoint', { description: 'Value type: a value at a date (JST day or YYYY-MM)' })
export class HistoryPointType {
  @Field(() => String, { description: 'JST date or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'The value then' }) value!: number;
}

@ObjectType('ReviewSong', { description: 'Value type: a chart whose best rose in the review period' })
export class ReviewSongType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: 'Best EX at the end of the period' }) exScore!: number;
  @Field(() => Float, { description: 'BPI at the end of the period' }) bpi!: number;
  @Field(() => Int, { nullable: true, description: 'The player\'s rank on the chart among all players\' bests (null: unknown)' }) rank!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI before the period (null: first played in it)' }) bpiBefore!: number | null;
  @Field(() => Int, { nullable: true, description: 'EX before the period (null: first played in it)' }) exScoreBefore!: number | null;
  @Field(() => Float, { nullable: true, description: 'bpi − bpiBefore (radar growth: from −15 when first played)' }) diff!: number | null;
}

@ObjectType('ReviewBpi', { description: 'Value type: the total BPI over the review period' })
export class ReviewBpiType {
  @Field(() => Float, { description: 'Total before the period' }) start!: number;
  @Field(() => Float, { description: 'Total at the end' }) end!: number;
  @Field(() => Float, { description: 'end − start' }) diff!: number;
  @Field(() => Int, { description: 'N of the totals' }) chartCount!: number;
  @Field(() => [HistoryPointType], { description: 'Total after each day (month review) or month (year review) with plays' }) history!: HistoryPointType[];
}

@ObjectType('TowerRanks', { description: 'Value type: the player\'s rank by keys and by scratches among all players over the period' })
export class TowerRanksType {
  @Field(() => Int, { nullable: true, description: 'Rank by keys (null: no tower data)' }) keysRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Rank by scratches (null: no tower data)' }) scratchRank!: number | null;
  @Field(() => Int, { description: 'Players with tower data in the period' }) totalUsers!: number;
}

@ObjectType('WeekdayCount', { description: 'Value type: a count per ISO weekday (1 = Monday … 7 = Sunday)' })
export class WeekdayCountType {
  @Field(() => Int, { description: 'ISO weekday, 1 = Monday … 7 = Sunday' }) weekday!: number;
  @Field(() => Int, { description: 'Count' }) count!: number;
}

@ObjectType('HourCount', { description: 'Value type: a count per JST hour' })
export class HourCountType {
  @Field(() => Int, { description: 'JST hour 0–23' }) hour!: number;
  @Field(() => Int, { description: 'Count' }) count!: number;
}

@ObjectType('ReviewBestDay', { description: 'Value type: the best day of a review for one measure' })
export class ReviewBestDayType {
  @Field(() => String, { description: 'JST date (or YYYY-MM in a year review\'s growth)' }) date!: string;
  @Field(() => Float, { description: 'The measure that day (BPI growth, keys or scratches)' }) value!: number;
}

@ObjectType('ReviewActivity', { description: 'Value type: what the player did in the review period' })
export class ReviewActivityType {
  @Field(() => Int, { description: 'Keys pressed (tower)' }) totalKeys!: number;
  @Field(() => Int, { description: 'Scratches (tower)' }) totalScratches!: number;
  @Field(() => Int, { description: 'Tower days with any count' }) playDays!: number;
  @Field(() => Int, { description: 'Charts whose best rose' }) updatedSongs!: number;
  @Field(() => [WeekdayCountType], { description: 'Stored plays per ISO weekday' }) byWeekday!: WeekdayCountType[];
  @Field(() => [HourCountType], { description: 'Stored plays per JST hour' }) byHour!: HourCountType[];
  @Field(() => TowerRanksType, { nullable: true, description: 'Tower ranks over the period (null: none)' }) towerRanking!: TowerRanksType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Largest positive total-BPI growth step' }) bestGrowth!: ReviewBestDayType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Day with most keys' }) bestKeysDay!: ReviewBestDayType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Day with most scratches' }) bestScratchDay!: ReviewBestDayType | null;
}

@ObjectType('ReviewRadarGrowth', { description: 'Value type: how one radar category moved in the review period' })
export class ReviewRadarGrowthType {
  @Field(() => RadarCategory, { description: 'Category' }) category!: RadarCategory;
  @Field(() => Float, { description: 'Value before the period' }) start!: number;
  @Field(() => Float, { description: 'Value at the end' }) end!: number;
  @Field(() => Float, { description: 'end − start' }) diff!: number;
  @Field(() => [HistoryPointType], { description: 'Value after each history group' }) history!: HistoryPointType[];
  @Field(() => [ReviewSongType], { description: 'Updated charts of the category whose BPI rose, by rise desc' }) songs!: ReviewSongType[];
}

@ObjectType('ReviewWinningSong', { description: 'Value type: a chart won against a rival at the end of the period' })
export class ReviewWinningSongType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: 'The player\'s EX' }) myExScore!: number;
  @Field(() => Int, { description: 'The rival\'s EX' }) rivalExScore!: number;
  @Field(() => Int, { description: 'myExScore − rivalExScore' }) margin!: number;
}

@ObjectType('ReviewRival', { description: 'Value type: a followed player (visible to the viewer) over the review period' })
export class ReviewRivalType {
  @Field(() => ID, { description: 'The rival\'s user id' }) userId!: string;
  @Field(() => UserType, { nullable: true, description: 'The rival' }) user!: UserType | null;
  @Field(() => String, { description: 'The rival\'s name' }) name!: string;
  @Field(() => Float, { description: 'Rival total BPI before the period' }) bpiStart!: number;
  @Field(() => Float, { description: 'Rival total BPI at the end' }) bpiEnd!: number;
  @Field(() => Float, { description: 'bpiEnd − bpiStart' }) bpiGrowth!: number;
  @Field(() => Int, { description: 'Charts won at the end and not at the start' }) newWins!: number;
  @Field(() => Int, { description: 'Charts lost at the end and not at the start' }) newLosses!: number;
  @Field(() => [ReviewWinningSongType], { description: 'Up to 10 charts won at the end, by margin desc' }) topWinningSongs!: ReviewWinningSongType[];
}

@ObjectType('ReviewGrowthEntry', { description: 'Value type: one line of the growth ranking (the viewer and the rivals)' })
export class ReviewGrowthEntryType {
  @Field(() => ID, { nullable: true, description: 'User id (null: the viewer)' }) userId!: string | null;
  @Field(() => String, { description: 'Name ("あなた" for the viewer)' }) name!: string;
  @Field(() => Boolean, { description: 'This line is the viewer' }) isViewer!: boolean;
  @Field(() => Float, { description: 'Total before the period' }) bpiStart!: number;
  @Field(() => Float, { description: 'Total at the end' }) bpiEnd!: number;
  @Field(() => Float, { description: 'bpiEnd − bpiStart' }) growth!: number;
  @Field(() => Float, { nullable: true, description: 'growth / (bpiStart + 15) · 100 (null when bpiStart is −15)' }) growthRate!: number | null;
}

@ObjectType('ReviewArena', { description: 'Value type: the player\'s arena results in the review period' })
export class ReviewArenaType {
  @Field(() => ArenaClass, { description: 'Best class seen' }) bestClass!: ArenaClass;
  @Field(() => Int, { nullable: true, description: 'Best class rank seen in that class' }) bestRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Highest A1 streak' }) maxA1Continue!: number | null;
}

@ObjectType('Review', { description: 'Value type: the monthly or yearly review (§3.17; the owner only)' })
export class ReviewType {
  @Field(() => String, { description: 'The period: YYYY-MM or YYYY' }) period!: string;
  @Field(() => String, { description: 'month or year' }) granularity!: string;
  @Field(() => String, { description: 'First JST date of the period' }) from!: string;
  @Field(() => String, { description: 'Last JST date of the period' }) to!: string;
  @Field(() => ReviewBpiType, { description: 'Total BPI over the period' }) bpi!: ReviewBpiType;
  @Field(() => [ReviewSongType], { description: 'Every updated chart by BPI desc' }) topBpiSongs!: ReviewSongType[];
  @Field(() => [ReviewSongType], { description: 'Updated charts played before, by BPI rise desc' }) topImprovedSongs!: ReviewSongType[];
  @Field(() => ReviewActivityType, { description: 'Activity in the period' }) activity!: ReviewActivityType;
  @Field(() => [ReviewRadarGrowthType], { description: 'Radar growth per category' }) radarGrowth!: ReviewRadarGrowthType[];
  @Field(() => [ReviewRivalType], { description: 'Followed players the viewer may see, by newWins − newLosses desc' }) rivals!: ReviewRivalType[];
  @Field(() => [ReviewGrowthEntryType], { description: 'The viewer and the rivals by growth desc' }) growthByAbs!: ReviewGrowthEntryType[];
  @Field(() => [ReviewGrowthEntryType], { description: 'The viewer and the rivals by growth rate desc (rates known only)' }) growthByRate!: ReviewGrowthEntryType[];
  @Field(() => ReviewArenaType, { nullable: true, description: 'Arena results (null: no snapshot in the period)' }) arena!: ReviewArenaType | null;
}

@ObjectType('NeighbourItem', { description: 'Value type: one of my charts against the average of the players nearest my total BPI' })
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
    'Value type: charts where I am furthest above (weapons) and below (potential) the players nearest my total BPI (§3.9). ' +
    'Only averages are shown, never who the neighbours are; with fewer than minimumNeighbors neighbours, or fewer than minimumPerChart on a chart, nothing (or that chart) is shown.',
})
export class NeighbourRecommendationsType {
  @Field(() => Float, { description: 'My stored total BPI (−15 without one)' }) myTotalBpi!: number;
  @Field(() => Int, { description: 'Neighbours used (0 when fewer than minimumNeighbors were found)' }) usedNeighbors!: number;
  @Field(() => Int, { description: 'Neighbours needed before any average is shown' }) minimumNeighbors!: number;
  @Field(() => Int, { description: 'Neighbours needed on a chart before its average is shown' }) minimumPerChart!: number;
  @Field(() => NeighbourListType, { description: 'Charts most above the neighbours' }) weapons!: NeighbourListType;
  @Field(() => NeighbourListType, { description: 'Charts most below the neighbours' }) potential!: NeighbourListType;
}

@ObjectType('TowerDay', { description: 'Value type: one day of the game\'s key counter (IIDX TOWER)' })
export class TowerDayType {
  @Field(() => GraphQLLocalDate, { description: 'JST game date' }) playDate!: string;
  @Field(() => Int, { description: 'Keys pressed' }) keyCount!: number;
  @Field(() => Int, { description: 'Scratches' }) scratchCount!: number;
}

@ObjectType('TowerHistory', { description: 'Value type: the player\'s key-counter days of a version (§3.18)' })
export class TowerHistoryType {
  @Field(() => [TowerDayType], { description: 'Days, newest first' }) days!: TowerDayType[];
  @Field(() => Int, { description: 'Σ keys' }) totalKeys!: number;
  @Field(() => Int, { description: 'Σ scratches' }) totalScratches!: number;
  @Field(() => Int, { description: 'Days with any count' }) playDays!: number;
}

// ───────────── tower register, rankings, site ─────────────

@ObjectType('RegisterTowerPayload', { description: 'Value type: result of registering key-counter days' })
export class RegisterTowerPayloadType {
  @Field(() => Int, { description: 'Days written (inserted or replaced)' }) upsertedCount!: number;
  @Field(() => TowerHistoryType, { description: 'The player\'s tower days of the version after the write' }) history!: TowerHistoryType;
}

@ObjectType('StatsRankingEntry', {
  description: 'Value type: one player on a stats ranking (tower, radar category). A player the caller may not see is masked: user null, name "非公開ユーザー"; rank and value stay.',
})
export class StatsRankingEntryType {
  @Field(() => Int, { description: 'Competition rank (ties share)' }) rank!: number;
  @Field(() => Float, { description: 'The ranked value (keys + scratches, or the category\'s total BPI)' }) value!: number;
  @Field(() => ID, { nullable: true, description: 'User id (null: masked)' }) userId!: string | null;
  @Field(() => UserType, { nullable: true, description: 'The player (null: masked)' }) user!: UserType | null;
  @Field(() => String, { description: 'Name, or "非公開ユーザー" when masked' }) name!: string;
  @Field(() => Boolean, { description: 'Identity hidden from the caller' }) isMasked!: boolean;
  @Field(() => Boolean, { description: 'This row is the caller\'s' }) isSelf!: boolean;
  @Field(() => Int, { nullable: true, description: 'Tower ranking: keys over the period' }) keyCount!: number | null;
  @Field(() => Int, { nullable: true, description: 'Tower ranking: scratches over the period' }) scratchCount!: number | null;
  @Field(() => RadarType, { nullable: true, description: 'Radar ranking: the player\'s six values (null when masked)' }) radar!: RadarType | null;
}

@ObjectType({ description: 'A page of the players ranked by tower (key presses)' })
export class TowerRankingConnection extends Connection(StatsRankingEntryType, 'TowerRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => StatsPeriod, { description: 'Period unit' }) period!: StatsPeriod;
  @Field(() => String, { description: 'First JST date of the period' }) startDate!: string;
  @Field(() => String, { description: 'Last JST date of the period' }) endDate!: string;
  @Field(() => Int, { nullable: true, description: 'The caller\'s rank (null: signed out or absent)' }) selfRank!: number | null;
}

@ObjectType({ description: 'A page of the players ranked in one radar category' })
export class RadarRankingConnection extends Connection(StatsRankingEntryType, 'RadarRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => RadarCategory, { description: 'The ranked category' }) category!: RadarCategory;
  @Field(() => Int, { nullable: true, description: 'The caller\'s rank (null: signed out or absent)' }) selfRank!: number | null;
  @Field(() => RadarType, { nullable: true, description: 'The caller\'s own radar in the version (null: signed out)' }) viewerRadar!: RadarType | null;
}

@ObjectType('SiteCounts', { description: 'Value type: totals and today\'s (JST) counts of the site' })
export class SiteCountsType {
  @Field(() => Int, { description: 'Players' }) totalUsers!: number;
  @Field(() => Int, { description: 'Players registered today (JST)' }) newUsersToday!: number;
  @Field(() => Int, { description: 'Import batches' }) totalBatches!: number;
  @Field(() => Int, { description: 'Import batches today (JST)' }) newBatchesToday!: number;
  @Field(() => Int, { description: 'Stored plays' }) totalPlays!: number;
  @Field(() => Int, { description: 'Stored plays today (JST)' }) newPlaysToday!: number;
}

@ObjectType('SiteDay', { description: 'Value type: registrations, batches and plays of one JST day' })
export class SiteDayType {
  @Field(() => String, { description: 'JST date' }) date!: string;
  @Field(() => Int, { description: 'Players registered' }) users!: number;
  @Field(() => Int, { description: 'Import batches' }) batches!: number;
  @Field(() => Int, { description: 'Stored plays' }) plays!: number;
}

@ObjectType('SiteBucket', { description: 'Value type: batches and plays in one JST hour or ISO weekday' })
export class SiteBucketType {
  @Field(() => Int, { description: 'JST hour 0–23, or ISO weekday 1 = Monday … 7 = Sunday' }) key!: number;
  @Field(() => Int, { description: 'Import batches' }) batches!: number;
  @Field(() => Int, { description: 'Stored plays' }) plays!: number;
}

@ObjectType('SiteWindow', { description: 'Value type: hourly and weekday distributions over one window of days' })
export class SiteWindowType {
  @Field(() => String, { description: 'all, d90, d30 or d7 (the last 90 / 30 / 7 JST days, today included)' }) window!: string;
  @Field(() => [SiteBucketType], { description: '24 JST hours' }) hourly!: SiteBucketType[];
  @Field(() => [SiteBucketType], { description: '7 ISO weekdays' }) weekday!: SiteBucketType[];
}

@ObjectType('NamedCount', { description: 'Value type: a name (arena class, area, version) and a count' })
export class NamedCountType {
  @Field(() => String, { description: 'The name' }) name!: string;
  @Field(() => Int, { description: 'The count' }) count!: number;
}

@ObjectType('SiteSummary', { description: 'Value type: the site-wide summary (§8.2); "today" is today in JST' })
export class SiteSummaryType {
  @Field(() => Date, { description: 'When computed' }) generatedAt!: Date;
  @Field(() => String, { description: 'Today\'s JST date' }) today!: string;
  @Field(() => SiteCountsType, { description: 'Totals and today\'s counts' }) summary!: SiteCountsType;
  @Field(() => [SiteDayType], { description: 'The 90 JST days ending today, oldest first' }) dailyRegistrations!: SiteDayType[];
  @Field(() => [SiteWindowType], { description: 'Windows all, d90, d30, d7' }) windows!: SiteWindowType[];
  @Field(() => [NamedCountType], { description: 'Players per arena class A1 … B5 (latest version)' }) arenaClassDistribution!: NamedCountType[];
  @Field(() => [NamedCountType], { description: 'Players per area, count desc (only players showing their area)' }) areaDistribution!: NamedCountType[];
  @Field(() => [NamedCountType], { description: 'Stored plays per game version' }) versionDistribution!: NamedCountType[];
}
