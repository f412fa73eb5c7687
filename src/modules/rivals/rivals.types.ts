import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { Connection } from '../../graphql/connection';
import { ClearLamp } from '../../domain/constants';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';
import '../shared/enums';
import { RadarType } from '../stats/stats.types';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

@ObjectType('WinLoss', {
  description:
    "Value type: viewer against the user on the SP charts of one level both have played (win: viewer's EX is higher)",
})
export class WinLossType {
  @Field(() => Int, { description: 'Chart level, 1–12' }) level!: number;
  @Field(() => Int, { description: "Charts where the viewer's EX score is higher" }) win!: number;
  @Field(() => Int, { description: "Charts where the user's EX score is higher" }) lose!: number;
  @Field(() => Int, { description: 'Charts with the same EX score' }) draw!: number;
}

@ObjectType('ProfileCompare', {
  description:
    "Value type: the viewer against a player in one version: wins and losses per level, and the player's radar",
})
export class ProfileCompareType {
  @Field(() => GameVersionScalar, { description: 'Game version compared' }) version!: string;
  @Field(() => [WinLossType], { nullable: true, description: 'null for anonymous viewers' }) winLoss!:
    WinLossType[] | null;
  @Field(() => RadarType, { description: "The user's radar" }) radar!: RadarType;
}

// ───────────── rivalry: the viewer against one player (docs/domain/stats.md#rivals) ─────────────

export enum RivalOutcome {
  WIN = 'WIN',
  LOSE = 'LOSE',
  DRAW = 'DRAW',
}
registerEnumType(RivalOutcome, {
  name: 'RivalOutcome',
  description: 'The viewer against the rival on one chart, by EX score (a missing score counts as 0)',
  valuesConfig: {
    WIN: { description: "The viewer's EX score is higher" },
    LOSE: { description: "The rival's EX score is higher" },
    DRAW: { description: 'Equal EX scores' },
  },
});

export enum RivalChartSort {
  LEVEL = 'LEVEL',
  TITLE = 'TITLE',
  NOTES = 'NOTES',
  BPM = 'BPM',
  MY_EX = 'MY_EX',
  RIVAL_EX = 'RIVAL_EX',
  MY_BPI = 'MY_BPI',
  RIVAL_BPI = 'RIVAL_BPI',
  MY_RATE = 'MY_RATE',
  RIVAL_RATE = 'RIVAL_RATE',
  EX_DIFF = 'EX_DIFF',
  BPI_DIFF = 'BPI_DIFF',
  WIN_GAP = 'WIN_GAP',
  LOSE_GAP = 'LOSE_GAP',
  WIN_BPI_GAP = 'WIN_BPI_GAP',
  LOSE_BPI_GAP = 'LOSE_BPI_GAP',
  MY_PLAYED_AT = 'MY_PLAYED_AT',
  RIVAL_PLAYED_AT = 'RIVAL_PLAYED_AT',
  LAST_PLAYED = 'LAST_PLAYED',
  VERSION = 'VERSION',
}
registerEnumType(RivalChartSort, {
  name: 'RivalChartSort',
  description:
    'Sort keys of a rival comparison list (docs/domain/stats.md#rivals); ties by level (highest first), title, chart id',
  valuesConfig: {
    LEVEL: { description: 'Chart level' },
    VERSION: { description: 'The version the chart was released in (unknown: last in either order)' },
    TITLE: { description: 'Song title (code-point order)' },
    NOTES: { description: 'Note count' },
    BPM: { description: 'Highest BPM of the chart' },
    MY_EX: { description: "The viewer's EX score (missing: −1)" },
    RIVAL_EX: { description: "The rival's EX score (missing: −1)" },
    MY_BPI: { description: "The viewer's BPI (missing: −15)" },
    RIVAL_BPI: { description: "The rival's BPI (missing: −15)" },
    MY_RATE: { description: "The viewer's score rate EX / (2·notes) (missing: −1)" },
    RIVAL_RATE: { description: "The rival's score rate (missing: −1)" },
    EX_DIFF: { description: 'exDiff (viewer − rival)' },
    BPI_DIFF: { description: 'bpiDiff (viewer − rival)' },
    WIN_GAP: { description: 'Charts the viewer wins first (by exDiff in the order), then the others' },
    LOSE_GAP: { description: "Charts the viewer loses first (by the rival's lead in the order), then the others" },
    WIN_BPI_GAP: { description: 'Charts with a positive bpiDiff first (by bpiDiff in the order), then the others' },
    LOSE_BPI_GAP: { description: 'Charts with a negative bpiDiff first (by −bpiDiff in the order), then the others' },
    MY_PLAYED_AT: { description: "When the viewer's best was played (missing: first in ASC)" },
    RIVAL_PLAYED_AT: { description: "When the rival's best was played" },
    LAST_PLAYED: { description: 'The later of the two play times' },
  },
});

export enum SortOrder {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(SortOrder, {
  name: 'RivalSortOrder',
  description: 'Direction of a rivals sort',
  valuesConfig: { ASC: { description: 'Smallest first' }, DESC: { description: 'Largest first' } },
});

@ObjectType('Rivalry', {
  description:
    'Value type: the viewer against this player in one version, on the charts both have a best on (all difficulties and levels unless filtered). wins + losses + draws = played.',
})
export class RivalryType {
  @Field(() => GameVersionScalar, { description: 'Game version compared' }) version!: string;
  @Field(() => Int, { description: "Charts both played where the viewer's best EX is higher" }) wins!: number;
  @Field(() => Int, { description: "Charts both played where this player's best EX is higher" }) losses!: number;
  @Field(() => Int, { description: 'Charts both played with equal best EX' }) draws!: number;
  @Field(() => Int, { description: 'Charts both played (in the filter)' }) played!: number;
  @Field(() => Float, {
    description: "The viewer's total BPI minus this player's, rounded to 2 decimals (a missing total is −15)",
  })
  bpiDiff!: number;
  @Field(() => Float, { description: "The viewer's total BPI in the version (−15 when none)" }) viewerTotalBpi!: number;
  @Field(() => Float, { description: "This player's total BPI in the version (−15 when none)" }) totalBpi!: number;
  /** internal: the pair and the filter, for the nested lists */
  viewerId!: string;
  userId!: string;
  levels!: number[] | null;
  difficulties!: string[] | null;
}

@ObjectType('RivalSide', { description: "Value type: one player's best on a chart in a comparison" })
export class RivalSideType {
  @Field(() => Int, { description: 'Best EX score' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      "BPI of that EX score — model V1 (default): the chart's current definition, null without one; V2: the fitted parameters, null when the chart has none",
  })
  bpi!: number | null;
  /** The chart (not a field: for bpi(model: V2)). */
  chartId!: number;
  @Field(() => ClearLamp, { description: 'Best clear lamp (NO_PLAY when none recorded)' }) clearLamp!: ClearLamp;
  @Field(() => Int, { nullable: true, description: 'Fewest misses (null: unknown)' }) missCount!: number | null;
  @Field(() => Date, { description: 'When the best EX was played' }) playedAt!: Date;
}

@ObjectType('RivalChart', {
  description: 'Value type: the viewer against the rival on one chart (at least one of them has a best)',
})
export class RivalChartType {
  @Field(() => ID, { description: "The chart's id" }) chartId!: number;
  @Field(() => ChartType, { description: 'The chart (from the in-memory catalogue, no query)' }) chart!: ChartType;
  @Field(() => RivalSideType, { nullable: true, description: "The viewer's best (null: not played)" })
  mine!: RivalSideType | null;
  @Field(() => RivalSideType, { nullable: true, description: "The rival's best (null: not played)" })
  rival!: RivalSideType | null;
  @Field(() => Int, { description: "Viewer's EX − rival's EX (a missing score counts as 0)" }) exDiff!: number;
  @Field(() => Float, { description: "Viewer's BPI − rival's BPI, rounded to 2 decimals (a missing BPI is −15)" })
  bpiDiff!: number;
  @Field(() => RivalOutcome, { description: 'Sign of exDiff' }) outcome!: RivalOutcome;
}

@ObjectType('RivalChartConnection', {
  description: 'A page of a rival comparison list (keyset cursor over the sort key)',
})
export class RivalChartConnection extends Connection(RivalChartType, 'RivalChart') {}

@ObjectType('RivalTrendPoint', { description: 'Value type: one day of the win/loss trend against a rival' })
export class RivalTrendPointType {
  @Field(() => GraphQLLocalDate, { description: 'JST calendar date with plays of either player' }) date!: string;
  @Field(() => Int, { description: 'Change of (wins − losses) that day' }) delta!: number;
  @Field(() => Int, { description: 'wins − losses after that day' }) cumulative!: number;
}

// ───────────── everyone I follow (docs/domain/stats.md#rivals) ─────────────

export enum RivalSummarySort {
  WINS = 'WINS',
  LOSSES = 'LOSSES',
  DRAWS = 'DRAWS',
  PLAYED = 'PLAYED',
  BPI_DIFF = 'BPI_DIFF',
  TOTAL_BPI = 'TOTAL_BPI',
  NAME = 'NAME',
}
registerEnumType(RivalSummarySort, {
  name: 'RivalSummarySort',
  description: 'Sort keys of the win/loss summary per followed player; ties by name, then user id',
  valuesConfig: {
    WINS: { description: 'Charts the viewer wins' },
    LOSSES: { description: 'Charts the viewer loses' },
    DRAWS: { description: 'Draws' },
    PLAYED: { description: 'Charts both played' },
    BPI_DIFF: { description: "Viewer's total BPI − the player's" },
    TOTAL_BPI: { description: "The player's total BPI" },
    NAME: { description: "The player's name (code-point order)" },
  },
});

@ObjectType('RivalSummary', { description: "Value type: one followed player and the viewer's rivalry with them" })
export class RivalSummaryType {
  @Field(() => ID, { description: "The followed player's id" }) userId!: string;
  @Field(() => UserType, { description: 'The followed player' }) user!: UserType;
  @Field(() => RivalryType, { description: "The viewer against this player (in the summary's version and filter)" })
  rivalry!: RivalryType;
}

@ObjectType('FollowingChartStat', {
  description:
    "Value type: the players a user follows (public, or private with an approved follow) on one chart: how many have a best, their average and top scores. Private players count but stay anonymous (topPlayer is null when the top score is a private player's).",
})
export class FollowingChartStatType {
  @Field(() => ID, { description: "The chart's id" }) chartId!: number;
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => GraphQLNonNegativeInt, { description: 'Followed players with a best on the chart' }) players!: number;
  @Field(() => Float, { description: 'Average of their best EX scores, rounded to 2 decimals' })
  averageExScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'Average BPI of those bests that have one (current definition), rounded to 2 decimals; null when none has',
  })
  averageBpi!: number | null;
  @Field(() => Int, { description: 'Highest best EX score' }) topExScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the highest EX score (null: no definition)' }) topBpi!:
    number | null;
  @Field(() => UserType, {
    nullable: true,
    description: 'Who holds the top score (the lowest user id among ties); null when that player is private',
  })
  topPlayer!: UserType | null;
}

@ObjectType('FollowingChartScore', { description: "Value type: one followed player's best on a chart" })
export class FollowingChartScoreType {
  @Field(() => ID, { description: "The player's id" }) userId!: string;
  @Field(() => UserType, { description: 'The player' }) user!: UserType;
  @Field(() => ID, { description: "The chart's id" }) chartId!: number;
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => Int, { description: 'Best EX score' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'Its BPI under the current definition (null: no definition) (model V2: the fitted BPI V2, null when the chart has none)',
  })
  bpi!: number | null;
  @Field(() => ClearLamp, { description: 'Best clear lamp (NO_PLAY when none recorded)' }) clearLamp!: ClearLamp;
  @Field(() => Int, { nullable: true, description: 'Fewest misses (null: unknown)' }) missCount!: number | null;
  @Field(() => Date, { description: 'When the best EX was played' }) playedAt!: Date;
}

@ObjectType('NearLoss', { description: 'Value type: a chart where a followed player leads the viewer by a few EX' })
export class NearLossType {
  @Field(() => ID, { description: "The chart's id" }) chartId!: number;
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => ID, { description: "The rival's id" }) rivalId!: string;
  @Field(() => UserType, { description: 'The rival' }) rival!: UserType;
  @Field(() => Int, { description: "The viewer's best EX" }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description: "The viewer's BPI (current definition) (model V2: the fitted BPI V2, null when the chart has none)",
  })
  bpi!: number | null;
  @Field(() => Int, { description: "The rival's best EX" }) rivalExScore!: number;
  @Field(() => Int, { description: 'rivalExScore − exScore (> 0: the rival leads)' }) exDiff!: number;
}

@ObjectType('NearLossConnection', {
  description: 'A page of near losses, exDiff ascending, then chart id, rival id (keyset cursor)',
})
export class NearLossConnection extends Connection(NearLossType, 'NearLoss') {}

@ObjectType('FollowingBpiChange', {
  description: "Value type: a followed public player's ☆12 total BPI at the start and end of a period",
})
export class FollowingBpiChangeType {
  @Field(() => ID, { description: "The player's id" }) userId!: string;
  @Field(() => UserType, { description: 'The player' }) user!: UserType;
  @Field(() => Float, { description: '☆12 (HYPER/ANOTHER/LEGGENDARIA) total BPI from the plays before the period' })
  bpiStart!: number;
  @Field(() => Float, { description: 'The same from the plays up to the end of the period' }) bpiEnd!: number;
  @Field(() => Float, { description: 'bpiEnd − bpiStart, rounded to 2 decimals' }) change!: number;
}

@ObjectType('ChartRank', {
  description:
    "Value type: a player's rank on one chart in a version (competition rank over every player's best EX: ties share a rank)",
})
export class ChartRankType {
  @Field(() => ID, { description: "The chart's id" }) chartId!: number;
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => Int, { description: "The player's best EX score" }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'Its BPI under the current definition (null: no definition) (model V2: the fitted BPI V2, null when the chart has none)',
  })
  bpi!: number | null;
  @Field(() => Int, { description: '1 + the number of players with a higher best EX' }) rank!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players with a best on the chart in the version' })
  players!: number;
}

export enum SuggestionOrder {
  NEAREST = 'NEAREST',
  VALUE = 'VALUE',
  NEWEST = 'NEWEST',
  SUPPORTERS = 'SUPPORTERS',
  SHUFFLE = 'SHUFFLE',
}
registerEnumType(SuggestionOrder, {
  name: 'SuggestionOrder',
  description: 'Order of rival suggestions; ties by user id',
  valuesConfig: {
    NEAREST: { description: "Nearest the viewer's value first" },
    VALUE: { description: 'Highest value first' },
    NEWEST: { description: 'Most recently updated total first' },
    SUPPORTERS: { description: 'Badge holders only (the viewer included), oldest badge first' },
    SHUFFLE: {
      description:
        "Players in a window of values ([50, 100] above 50, else the viewer's −3 … +5) in a shuffle fixed by seed",
    },
  },
});

@ObjectType('SuggestedRival', {
  description: 'Value type: a public player suggested to follow, with their value on the basis asked',
})
export class SuggestedRivalType {
  @Field(() => ID, { description: "The player's id" }) userId!: string;
  @Field(() => UserType, { description: 'The player' }) user!: UserType;
  @Field(() => Float, { description: 'Their total BPI in the version (−15 when none is stored)' }) totalBpi!: number;
  @Field(() => Float, { description: 'Their value on the basis asked: the total BPI or the radar category' })
  value!: number;
  @Field(() => Float, { description: "|their value − the viewer's value|, rounded to 2 decimals" }) distance!: number;
}
