import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Chart } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import type { Page } from '../../graphql/connection';
import { ChartType } from '../shared/chart.type';
import {
  PopularChartsArgs,
  SimilarSongsArgs,
  SongRankingArgs,
  UserSimilarSongsArgs,
  UserSongRankingArgs,
  UserSongsArgs,
} from './rankings.inputs';
import {
  ChartAttributeType,
  ChartAttributesInput,
  ChartPopularityConnection,
  ChartPopularityType,
  ChartWithScoreConnection,
  ChartWithScoreType,
  ImportChartAttributesPayload,
  SimilarChartType,
  SongRankingConnection,
} from './rankings.types';

@Resolver()
export class RankingsResolver {
  @Query(() => SongRankingConnection, {
    description:
      "Players' best EX scores on a chart of any level or difficulty, best first (competition ranks); isSelf / selfRank refer to the caller",
  })
  songRanking(@Args(() => SongRankingArgs) args: SongRankingArgs, @Ctx() ctx: Context): Promise<SongRankingConnection> {
    return ctx.services.rankings.rankingPage(args.chartId, args, ctx.viewer?.id ?? null);
  }

  @Query(() => SongRankingConnection, {
    description: 'songRanking in the context of a profile: isSelf / selfRank refer to userId',
  })
  userSongRanking(
    @Args(() => UserSongRankingArgs) args: UserSongRankingArgs,
    @Ctx() ctx: Context,
  ): Promise<SongRankingConnection> {
    return ctx.services.rankings.rankingPage(args.chartId, args, args.userId);
  }

  @Query(() => [SimilarChartType], {
    description: 'Charts nearest by attribute-vector distance (limit 1–50, default 10)',
  })
  similarSongs(@Args(() => SimilarSongsArgs) args: SimilarSongsArgs, @Ctx() ctx: Context) {
    return ctx.services.rankings.similarCharts(args, null);
  }

  @Query(() => [SimilarChartType], { description: "similarSongs with the profile user's best scores attached" })
  userSimilarSongs(@Args(() => UserSimilarSongsArgs) args: UserSimilarSongsArgs, @Ctx() ctx: Context) {
    return ctx.services.rankings.similarCharts(args, args.userId);
  }

  @Query(() => ChartPopularityConnection, {
    description: 'Charts with many (MOST) or few (FEWEST) players in a version',
  })
  popularCharts(
    @Args(() => PopularChartsArgs) args: PopularChartsArgs,
    @Ctx() ctx: Context,
  ): Promise<Page<ChartPopularityType>> {
    return ctx.services.rankings.popularCharts(args);
  }

  @Query(() => ChartWithScoreConnection, {
    description: "The BPI song master list (level 11/12 charts in the version) with the profile user's best scores",
  })
  userSongs(@Args(() => UserSongsArgs) args: UserSongsArgs, @Ctx() ctx: Context): Promise<Page<ChartWithScoreType>> {
    return ctx.services.rankings.userSongs(args);
  }

  @Mutation(() => ImportChartAttributesPayload, {
    description:
      'Imports chart attribute vectors for similar songs (administrators); same as `cli charts import-attributes`',
  })
  importChartAttributes(
    @Arg('entries', () => [ChartAttributesInput], {
      description: 'Attribute vectors, one per chart (matched by title + difficulty + play style)',
    })
    entries: ChartAttributesInput[],
    @Ctx() ctx: Context,
  ) {
    return ctx.services.rankings.importAttributes(
      entries.map((e) => ({ ...e, attributes: Object.fromEntries(e.attributes.map((a) => [a.name, a.value])) })),
    );
  }
}

@Resolver(() => ChartType)
export class ChartAttributesResolver {
  @FieldResolver(() => [ChartAttributeType], {
    nullable: true,
    description: 'Attribute vector used by similar songs (null: none imported)',
  })
  attributes(@Root() chart: Chart, @Ctx() ctx: Context): Promise<ChartAttributeType[] | null> {
    return ctx.services.rankings.attributes(chart);
  }
}
