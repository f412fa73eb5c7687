import { ArgsType, Field, ID, Int } from 'type-graphql';
import { BidirectionalConnectionArgs, ConnectionArgs } from '../../graphql/connection';
import { ChartPopularityOrder, SimilarityModeEnum } from './rankings.types';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class SongRankingArgs extends BidirectionalConnectionArgs {
  @Field(() => ID, { description: 'The chart ranked (database id or global id)' }) chartId!: string;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
}

@ArgsType()
export class UserSongRankingArgs extends SongRankingArgs {
  @Field(() => ID, { description: 'The profile user (rule VISIBLE); isSelf / selfRank refer to this user' })
  userId!: string;
}

@ArgsType()
export class SimilarSongsArgs {
  @Field(() => ID, { description: 'The chart to compare with (database id or global id)' }) chartId!: string;
  @Field(() => GameVersionScalar, {
    nullable: true,
    description: 'Game version for the candidates (default: the latest)',
  })
  version?: string | null;
  @Field(() => Int, { nullable: true, defaultValue: 10, description: '1–50 (default 10)' }) limit?: number | null;
  @Field(() => SimilarityModeEnum, {
    nullable: true,
    defaultValue: SimilarityModeEnum.SHARED,
    description: "SHARED (default), or the reference's PROFILE / GLOBAL vector sets",
  })
  mode?: SimilarityModeEnum | null;
}

@ArgsType()
export class UserSimilarSongsArgs extends SimilarSongsArgs {
  @Field(() => ID, { description: 'The profile user (rule VISIBLE) whose best scores are attached' }) userId!: string;
}

@ArgsType()
export class PopularChartsArgs extends BidirectionalConnectionArgs {
  @Field(() => ChartPopularityOrder, {
    nullable: true,
    defaultValue: ChartPopularityOrder.MOST,
    description: 'MOST (default) or FEWEST players first',
  })
  order?: ChartPopularityOrder | null;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => Int, { nullable: true, description: 'Only charts of this level (default: all)' }) level?: number | null;
}

@ArgsType()
export class UserSongsArgs extends ConnectionArgs {
  @Field(() => ID, { description: 'The profile user (rule VISIBLE) whose best scores are attached' }) userId!: string;
  @Field(() => GameVersionScalar, {
    nullable: true,
    description: 'Game version (default: the latest); charts not in it are left out',
  })
  version?: string | null;
}
