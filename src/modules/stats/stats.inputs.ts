import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { ArenaClass, Difficulty, RadarCategory } from '../shared/enums';
import { ChartTheme, StatsPeriod } from './dashboard.types';
import { BidirectionalConnectionArgs } from '../../graphql/connection';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class GlobalRankingArgs extends BidirectionalConnectionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Only players of this area (prefecture / region, exact name as in the official arena data)',
  })
  area?: string | null;
  @Field(() => ArenaClass, { nullable: true, description: 'Only players of this arena class' })
  arenaClass?: ArenaClass | null;
}

@ArgsType()
export class RecommendedArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
  @Field(() => [Int], { nullable: true, description: 'Levels (11, 12); empty = all' }) level?: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'HYPER, ANOTHER, LEGGENDARIA; empty = all' }) difficulty?:
    Difficulty[] | null;
  @Field(() => Int, { nullable: true, description: '1–100, default 10' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: '≥ 0, default 0' }) offset?: number | null;
}

@ArgsType()
export class TotalBpiHistoryArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
  @Field(() => StatsPeriod, {
    nullable: true,
    description: 'Unit of the points: DAY (default), WEEK (keyed by its Monday) or MONTH (YYYY-MM)',
  })
  period?: StatsPeriod | null;
  @Field(() => String, {
    nullable: true,
    description: 'day (default), week or month; period wins when both are given',
    deprecationReason: 'Use period (an enum); removed in the next release',
  })
  groupBy?: string | null;
}

// ───────────── dashboard and cross-player stats ─────────────

@ArgsType()
export class DashboardArgs {
  @Field(() => GameVersionScalar, {
    nullable: true,
    description: 'Game version (default: the latest); an unknown version is BAD_USER_INPUT',
  })
  version?: string | null;
  @Field(() => [Int], {
    nullable: true,
    description: "Levels 11 and/or 12 (default: each part's scope, usually both); any other level is BAD_USER_INPUT",
  })
  levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'HYPER, ANOTHER, LEGGENDARIA (default: all three)' })
  difficulties?: Difficulty[] | null;
}

@ArgsType()
export class StepArgs {
  @Field(() => Int, { nullable: true, description: 'Bucket width: 1, 2, 5 or 10 (default 10)' }) step?: number | null;
}

@ArgsType()
export class AaaTableArgs {
  @Field(() => Float, {
    nullable: true,
    description: 'Custom goal as a share of the maximum EX score, 0–1 (e.g. 0.9); none by default',
  })
  customGoalRatio?: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'EX points added to the custom goal (may be negative; needs customGoalRatio)',
  })
  customGoalOffset?: number | null;
}

@ArgsType()
export class GuestAaaTableArgs {
  @Field(() => GameVersionScalar, { description: 'Game version; an unknown version is BAD_USER_INPUT' })
  version!: string;
  @Field(() => Int, { description: 'Level 11 or 12 (the levels with BPI definitions); any other is BAD_USER_INPUT' })
  level!: number;
}

@ArgsType()
export class AsOfArgs {
  @Field(() => String, {
    nullable: true,
    description: 'A JST date YYYY-MM-DD: the total at the end of that day (default or "latest": now)',
  })
  asOf?: string | null;
}

@ArgsType()
export class GroupByArgs {
  @Field(() => StatsPeriod, { nullable: true, description: 'Unit of the points (default DAY)' })
  groupBy?: StatsPeriod | null;
}

@ArgsType()
export class UnitArgs {
  @Field(() => StatsPeriod, {
    nullable: true,
    description: 'Unit of the boxes (default DAY; weeks start on Sunday, JST, as the reference)',
  })
  unit?: StatsPeriod | null;
}

@ArgsType()
export class DateRangeArgs {
  @Field(() => String, { nullable: true, description: 'First JST date YYYY-MM-DD (inclusive; default: no bound)' })
  from?: string | null;
  @Field(() => String, { nullable: true, description: 'Last JST date YYYY-MM-DD (inclusive; default: no bound)' }) to?:
    string | null;
}

@ArgsType()
export class ReviewArgs {
  @Field(() => String, { description: 'The period: a month YYYY-MM or a year YYYY (JST)' }) month!: string;
}

@ArgsType()
export class NeighbourArgs {
  @Field(() => Int, { nullable: true, description: 'Page size of each list, 1–100 (default 20)' }) limit?:
    number | null;
  @Field(() => Int, { nullable: true, description: 'Start of the page, ≥ 0 (default 0)' }) offset?: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'How many players nearest my total BPI form the neighbourhood, 1–200 (default 20). Privacy minimums still ' +
      'apply: with fewer than 5 neighbours found (so any n below 5) nothing is shown, and a chart is listed only ' +
      'when at least 3 neighbours played it',
  })
  n?: number | null;
}

@ArgsType()
export class ThemeArgs {
  @Field(() => ChartTheme, { nullable: true, description: 'Colour scheme (default LIGHT)' }) theme?: ChartTheme | null;
}

@ArgsType()
export class TrendSvgArgs extends ThemeArgs {
  @Field(() => StatsPeriod, { nullable: true, description: 'Unit of the points (default DAY)' })
  groupBy?: StatsPeriod | null;
}

@ArgsType()
export class DistributionSvgArgs extends ThemeArgs {
  @Field(() => Int, { nullable: true, description: 'Bucket width: 1, 2, 5 or 10 (default 10)' }) step?: number | null;
}

@InputType('TowerDayInput', { description: "One day of the game's key counter" })
export class TowerDayInput {
  @Field(() => String, { description: 'JST game date YYYY-MM-DD, not after today' }) playDate!: string;
  @Field(() => Int, { description: 'Keys pressed, 0–10,000,000' }) keyCount!: number;
  @Field(() => Int, { description: 'Scratches, 0–10,000,000' }) scratchCount!: number;
}

@ArgsType()
export class RegisterTowerArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => GameVersionScalar, { description: 'Game version of the days' }) version!: string;
  @Field(() => [TowerDayInput], {
    description: '1–1000 days, each date once; a day already registered for the version is replaced',
  })
  rows!: TowerDayInput[];
}

@ArgsType()
export class TowerRankingArgs extends BidirectionalConnectionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => StatsPeriod, {
    nullable: true,
    description: 'DAY (default), WEEK (Monday–Sunday) or MONTH holding the date',
  })
  period?: StatsPeriod | null;
  @Field(() => String, {
    nullable: true,
    description: 'A JST date YYYY-MM-DD in the period (default and upper bound: today, JST)',
  })
  date?: string | null;
}

@ArgsType()
export class RadarRankingArgs extends BidirectionalConnectionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => RadarCategory, { description: 'The radar category ranked' }) category!: RadarCategory;
}
