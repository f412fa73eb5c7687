/** GraphQL types of the dashboard's monthly / yearly review (`Dashboard.review`, the owner only). */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { ArenaClass, Difficulty, RadarCategory } from '../shared/enums';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';

@ObjectType('ReviewPeriods', { description: 'Value type: months and years with plays, for the reviews' })
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
  @Field(() => Int, {
    nullable: true,
    description: "The player's rank on the chart among all players' bests (null: unknown)",
  })
  rank!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI before the period (null: first played in it)' }) bpiBefore!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'EX before the period (null: first played in it)' }) exScoreBefore!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'bpi − bpiBefore (radar growth: from −15 when first played)' })
  diff!: number | null;
}

@ObjectType('ReviewBpi', { description: 'Value type: the total BPI over the review period' })
export class ReviewBpiType {
  @Field(() => Float, { description: 'Total before the period' }) start!: number;
  @Field(() => Float, { description: 'Total at the end' }) end!: number;
  @Field(() => Float, { description: 'end − start' }) diff!: number;
  @Field(() => Int, { description: 'N of the totals' }) chartCount!: number;
  @Field(() => [HistoryPointType], {
    description: 'Total after each day (month review) or month (year review) with plays',
  })
  history!: HistoryPointType[];
}

@ObjectType('TowerRanks', {
  description: "Value type: the player's rank by keys and by scratches among all players over the period",
})
export class TowerRanksType {
  @Field(() => Int, { nullable: true, description: 'Rank by keys (null: no tower data)' }) keysRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Rank by scratches (null: no tower data)' }) scratchRank!:
    number | null;
  @Field(() => Int, { description: 'Players with tower data in the period' }) totalUsers!: number;
}

@ObjectType('WeekdayCount', { description: 'Value type: a count per ISO weekday (1 = Monday … 7 = Sunday)' })
export class WeekdayCountType {
  @Field(() => Int, { description: 'ISO weekday, 1 = Monday … 7 = Sunday' }) weekday!: number;
  @Field(() => Int, { description: 'Count' }) count!: number;
}

@ObjectType('DayOfWeekCount', {
  description: 'Value type: a count per day of the week, 0 = Monday … 6 = Sunday (JST), as the reference numbers them',
})
export class DayOfWeekCountType {
  @Field(() => Int, { description: 'Day of the week, 0 = Monday … 6 = Sunday' }) day!: number;
  @Field(() => Int, { description: 'Count' }) count!: number;
}

@ObjectType('HourCount', { description: 'Value type: a count per JST hour' })
export class HourCountType {
  @Field(() => Int, { description: 'JST hour 0–23' }) hour!: number;
  @Field(() => Int, { description: 'Count' }) count!: number;
}

@ObjectType('ReviewBestDay', { description: 'Value type: the best day of a review for one measure' })
export class ReviewBestDayType {
  @Field(() => String, { description: "JST date (or YYYY-MM in a year review's growth)" }) date!: string;
  @Field(() => Float, { description: 'The measure that day (BPI growth, keys or scratches)' }) value!: number;
}

@ObjectType('ReviewActivity', { description: 'Value type: what the player did in the review period' })
export class ReviewActivityType {
  @Field(() => Int, { description: 'Keys pressed (tower)' }) totalKeys!: number;
  @Field(() => Int, { description: 'Scratches (tower)' }) totalScratches!: number;
  @Field(() => Int, { description: 'Tower days with any count' }) playDays!: number;
  @Field(() => Int, { description: 'Charts whose best rose' }) updatedSongs!: number;
  @Field(() => [WeekdayCountType], {
    description: 'Stored plays per ISO weekday',
    deprecationReason: 'Use byDayOfWeek (numbered from 0 as the reference); removed in the next release',
  })
  byWeekday!: WeekdayCountType[];
  @Field(() => [DayOfWeekCountType], {
    description: 'Stored plays per JST day of the week, 0 = Monday … 6 = Sunday (as the reference)',
  })
  byDayOfWeek!: DayOfWeekCountType[];
  @Field(() => [HourCountType], { description: 'Stored plays per JST hour' }) byHour!: HourCountType[];
  @Field(() => TowerRanksType, { nullable: true, description: 'Tower ranks over the period (null: none)' })
  towerRanking!: TowerRanksType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Largest positive total-BPI growth step' })
  bestGrowth!: ReviewBestDayType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Day with most keys' })
  bestKeysDay!: ReviewBestDayType | null;
  @Field(() => ReviewBestDayType, { nullable: true, description: 'Day with most scratches' })
  bestScratchDay!: ReviewBestDayType | null;
}

@ObjectType('ReviewRadarGrowth', { description: 'Value type: how one radar category moved in the review period' })
export class ReviewRadarGrowthType {
  @Field(() => RadarCategory, { description: 'Category' }) category!: RadarCategory;
  @Field(() => Float, { description: 'Value before the period' }) start!: number;
  @Field(() => Float, { description: 'Value at the end' }) end!: number;
  @Field(() => Float, { description: 'end − start' }) diff!: number;
  @Field(() => [HistoryPointType], { description: 'Value after each history group' }) history!: HistoryPointType[];
  @Field(() => [ReviewSongType], { description: 'Updated charts of the category whose BPI rose, by rise desc' })
  songs!: ReviewSongType[];
}

@ObjectType('ReviewWinningSong', { description: 'Value type: a chart won against a rival at the end of the period' })
export class ReviewWinningSongType {
  @Field(() => Int, { description: 'Chart id' }) chartId!: number;
  @Field(() => ChartType, { nullable: true, description: 'The chart' }) chart!: ChartType | null;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level' }) level!: number;
  @Field(() => Int, { description: "The player's EX" }) myExScore!: number;
  @Field(() => Int, { description: "The rival's EX" }) rivalExScore!: number;
  @Field(() => Int, { description: 'myExScore − rivalExScore' }) margin!: number;
}

@ObjectType('ReviewRival', {
  description: 'Value type: a followed player (visible to the viewer) over the review period',
})
export class ReviewRivalType {
  @Field(() => ID, { description: "The rival's user id" }) userId!: string;
  @Field(() => UserType, { nullable: true, description: 'The rival' }) user!: UserType | null;
  @Field(() => String, { description: "The rival's name" }) name!: string;
  @Field(() => Float, { description: 'Rival total BPI before the period' }) bpiStart!: number;
  @Field(() => Float, { description: 'Rival total BPI at the end' }) bpiEnd!: number;
  @Field(() => Float, { description: 'bpiEnd − bpiStart' }) bpiGrowth!: number;
  @Field(() => Int, { description: 'Charts won at the end and not at the start' }) newWins!: number;
  @Field(() => Int, { description: 'Charts lost at the end and not at the start' }) newLosses!: number;
  @Field(() => [ReviewWinningSongType], { description: 'Up to 10 charts won at the end, by margin desc' })
  topWinningSongs!: ReviewWinningSongType[];
}

@ObjectType('ReviewGrowthEntry', {
  description: 'Value type: one line of the growth ranking (the viewer and the rivals)',
})
export class ReviewGrowthEntryType {
  @Field(() => ID, { nullable: true, description: 'User id (null: the viewer)' }) userId!: string | null;
  @Field(() => String, { description: 'Name ("あなた" for the viewer)' }) name!: string;
  @Field(() => Boolean, { description: 'This line is the viewer' }) isViewer!: boolean;
  @Field(() => Float, { description: 'Total before the period' }) bpiStart!: number;
  @Field(() => Float, { description: 'Total at the end' }) bpiEnd!: number;
  @Field(() => Float, { description: 'bpiEnd − bpiStart' }) growth!: number;
  @Field(() => Float, { nullable: true, description: 'growth / (bpiStart + 15) · 100 (null when bpiStart is −15)' })
  growthRate!: number | null;
}

@ObjectType('ReviewGrowthLine', {
  description: 'Value type: the total-BPI line of the viewer or of a followed player over the review period',
})
export class ReviewGrowthLineType {
  @Field(() => ID, { nullable: true, description: 'User id (null: the viewer)' }) userId!: string | null;
  @Field(() => UserType, { nullable: true, description: 'The rival (null: the viewer)' }) user!: UserType | null;
  @Field(() => String, { description: 'Name ("あなた" for the viewer)' }) name!: string;
  @Field(() => Boolean, { description: 'This line is the viewer' }) isViewer!: boolean;
  @Field(() => Float, { description: 'Total BPI before the period' }) bpiBase!: number;
  @Field(() => [HistoryPointType], {
    description:
      "Total after each day (month review) or month (year review) in which the player played, led by the period's first day or month at bpiBase when not played then",
  })
  history!: HistoryPointType[];
}

@ObjectType('ReviewArena', { description: "Value type: the player's arena results in the review period" })
export class ReviewArenaType {
  @Field(() => ArenaClass, { description: 'Best class seen' }) bestClass!: ArenaClass;
  @Field(() => Int, { nullable: true, description: 'Best class rank seen in that class' }) bestRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Highest A1 streak' }) maxA1Continue!: number | null;
}

@ObjectType('Review', { description: 'Value type: the monthly or yearly review (the owner only)' })
export class ReviewType {
  @Field(() => String, { description: 'The period: YYYY-MM or YYYY' }) period!: string;
  @Field(() => String, { description: 'month or year' }) granularity!: string;
  @Field(() => String, { description: 'First JST date of the period' }) from!: string;
  @Field(() => String, { description: 'Last JST date of the period' }) to!: string;
  @Field(() => ReviewBpiType, { description: 'Total BPI over the period' }) bpi!: ReviewBpiType;
  @Field(() => [ReviewSongType], { description: 'Every updated chart by BPI desc' }) topBpiSongs!: ReviewSongType[];
  @Field(() => [ReviewSongType], { description: 'Updated charts played before, by BPI rise desc' })
  topImprovedSongs!: ReviewSongType[];
  @Field(() => ReviewActivityType, { description: 'Activity in the period' }) activity!: ReviewActivityType;
  @Field(() => [ReviewRadarGrowthType], { description: 'Radar growth per category' })
  radarGrowth!: ReviewRadarGrowthType[];
  @Field(() => [ReviewRivalType], { description: 'Followed players the viewer may see, by newWins − newLosses desc' })
  rivals!: ReviewRivalType[];
  @Field(() => [ReviewGrowthEntryType], { description: 'The viewer and the rivals by growth desc' })
  growthByAbs!: ReviewGrowthEntryType[];
  @Field(() => [ReviewGrowthEntryType], {
    description: 'The viewer and the rivals by growth rate desc (rates known only)',
  })
  growthByRate!: ReviewGrowthEntryType[];
  @Field(() => [ReviewGrowthLineType], {
    description:
      'Total-BPI lines: the viewer first (when the viewer played in the period), then each rival in the order of rivals',
  })
  growthLines!: ReviewGrowthLineType[];
  @Field(() => ReviewArenaType, { nullable: true, description: 'Arena results (null: no snapshot in the period)' })
  arena!: ReviewArenaType | null;
}
