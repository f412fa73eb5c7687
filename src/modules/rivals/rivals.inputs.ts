import { ArgsType, Field, ID, Int } from 'type-graphql';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../../graphql/connection';
import { Difficulty, RadarCategory } from '../../domain/constants';
import '../shared/enums';
import { RivalChartSort, RivalOutcome, RivalSummarySort, SortOrder, SuggestionOrder } from './rivals.types';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class RivalryArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
  version?: string | null;

  @Field(() => [Int], { nullable: true, description: 'Only charts of these levels (1–12; default: all)' })
  levels?: number[] | null;

  @Field(() => [Difficulty], { nullable: true, description: 'Only charts of these difficulties (default: all)' })
  difficulties?: Difficulty[] | null;
}

@ArgsType()
export class RivalChartsArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  first?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Opaque cursor from pageInfo.endCursor (it holds the sort key: valid for the same sort and order only)',
  })
  after?: string | null;

  @Field(() => RivalChartSort, { nullable: true, description: 'Sort key (default LEVEL)' })
  sort?: RivalChartSort | null;

  @Field(() => SortOrder, { nullable: true, description: 'Sort direction (default DESC)' })
  order?: SortOrder | null;

  @Field(() => [RivalOutcome], { nullable: true, description: 'Only charts with these outcomes' })
  outcomes?: RivalOutcome[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only charts both players have a best on (default false: either side, as the reference)',
  })
  bothPlayed?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Reorders, never filters (as the reference): charts whose title is this text first, then titles starting with it, then the rest, each part in the sort (case-insensitive, 1–100 characters)',
  })
  search?: string | null;
}

@ArgsType()
export class RivalChartArgs {
  @Field(() => ID, { description: 'The chart' })
  chartId!: string;
}

@ArgsType()
export class RivalTrendArgs {
  @Field(() => Int, {
    nullable: true,
    description: "Only charts of this level (1–12; default: all levels of the rivalry's filter)",
  })
  level?: number | null;
}

@ArgsType()
export class RivalSummaryArgs extends RivalryArgs {
  @Field(() => ID, {
    nullable: true,
    description: "Only the members of this follow list (one of the user's lists; NOT_FOUND otherwise)",
  })
  listId?: string | null;

  @Field(() => RivalSummarySort, { nullable: true, description: 'Sort key (default WINS)' })
  sort?: RivalSummarySort | null;

  @Field(() => SortOrder, { nullable: true, description: 'Sort direction (default DESC; NAME defaults to ASC)' })
  order?: SortOrder | null;
}

@ArgsType()
export class FollowingChartStatsArgs extends RivalryArgs {
  @Field(() => [ID], { nullable: true, description: 'Only these charts (at most 1000)' })
  chartIds?: string[] | null;
}

@ArgsType()
export class FollowingScoresOnArgs {
  @Field(() => ID, { description: 'The chart (any level or difficulty)' })
  chartId!: string;

  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
  version?: string | null;
}

@ArgsType()
export class NearLossesArgs extends RivalryArgs {
  @Field(() => Int, { nullable: true, description: 'Smallest lead of the rival kept, in EX (default 1)' })
  minDiff?: number | null;

  @Field(() => Int, { nullable: true, description: 'Largest lead of the rival kept, in EX (default 30)' })
  maxDiff?: number | null;

  @Field(() => Int, { nullable: true, description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Opaque cursor from pageInfo.endCursor' })
  after?: string | null;
}

@ArgsType()
export class FollowingBpiChangesArgs {
  @Field(() => String, { description: 'The period: a month YYYY-MM or a year YYYY (JST)' })
  month!: string;

  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
  version?: string | null;
}

@ArgsType()
export class SuggestedRivalsArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
  version?: string | null;

  @Field(() => Int, { nullable: true, description: 'How many, 1–50 (default 20)' })
  first?: number | null;

  @Field(() => Int, { nullable: true, description: 'Players to skip, 0–10000 (default 0)' })
  offset?: number | null;

  @Field(() => RadarCategory, {
    nullable: true,
    description:
      "The basis: one radar category (the owner's live radar against each player's cached one); default the total BPI",
  })
  category?: RadarCategory | null;

  @Field(() => SuggestionOrder, { nullable: true, description: 'Order (default NEAREST)' })
  order?: SuggestionOrder | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only players whose name or game id (dashes ignored) holds this, case-insensitive (1–50 characters)',
  })
  search?: string | null;

  @Field(() => Int, { nullable: true, description: 'The shuffle seed of the SHUFFLE order (required there)' })
  seed?: number | null;
}

@ArgsType()
export class SearchUsersArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Start of the name, case-insensitive (1–20 characters); give prefix or search',
  })
  prefix?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Part of the name or of the game id (dashes ignored), case-insensitive (1–50 characters); give prefix or search',
  })
  search?: string | null;

  @Field(() => Int, { nullable: true, description: 'How many, 1–50 (default 20)' })
  first?: number | null;
}
