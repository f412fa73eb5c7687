import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { BestScore, Chart } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { visibleUser } from '../../graphql/rules';
import type { Page } from '../../graphql/connection';
import { toAttributeVector } from '../../domain/similarity';
import { withCurrentBpi } from '../scores/scores.service';
import { parseIntId } from './notes.service';
import { bestScoreKey } from './rankings.loaders';
import { PopularChartsArgs, SimilarSongsArgs, SongRankingArgs, UserSimilarSongsArgs, UserSongRankingArgs, UserSongsArgs } from './rankings.inputs';
import { RankingsService, parseVersion } from './rankings.service';
import {
  ChartAttributeType,
  ChartAttributesInput,
  ChartPopularityConnection,
  ChartPopularityOrder,
  ChartPopularityType,
  ChartWithScoreConnection,
  ChartWithScoreType,
  ImportChartAttributesPayload,
  PlayerChartScoreType,
  SimilarChartType,
  SongRankingConnection,
  SongRankingEntryType,
} from './rankings.types';
import { ChartType } from './songs.types';

async function loadCharts(ctx: Context, ids: number[]): Promise<Chart[]> {
  const charts = await ctx.loaders.songsChartById.loadMany(ids);
  return charts.map((c, i) => {
    if (!c || c instanceof Error) throw c instanceof Error ? c : new Error(`chart ${ids[i]} vanished`);
    return c;
  });
}

/** Ranking rows with players the caller may not see anonymised (visibleUser, batched through loaders). */
async function rankingConnection(ctx: Context, chartId: number, args: SongRankingArgs, selfUserId: string | null): Promise<SongRankingConnection> {
  const { version, selfRank, page } = await new RankingsService(ctx.db).ranking(chartId, args.version, args.first, args.after, selfUserId);
  const edges = await Promise.all(
    page.edges.map(async ({ cursor, node }) => {
      const player = await visibleUser(ctx, node.userId);
      const entry: SongRankingEntryType = {
        rank: node.rank,
        player,
        anonymous: !player,
        exScore: node.exScore,
        bpi: ctx.app.catalogue.currentBpi(chartId, node.exScore),
        isSelf: node.userId === selfUserId,
      };
      return { cursor, node: entry };
    }),
  );
  return { ...page, edges, version, selfRank };
}

async function similarCharts(ctx: Context, args: SimilarSongsArgs, userId: string | null): Promise<SimilarChartType[]> {
  const version = parseVersion(args.version);
  const rows = await new RankingsService(ctx.db).similar(parseIntId(args.chartId, 'chartId'), version, args.limit);
  const scores = userId ? await ctx.loaders.songsBestScore.loadMany(rows.map((r) => bestScoreKey(userId, version, r.chart.id))) : [];
  return rows.map((r, i) => ({ chart: r.chart, distance: r.distance, score: userId ? toScore(ctx, scores[i]) : null }));
}

/** A loaded best as a PlayerChartScore: its BPI under the chart's current definition. */
function toScore(ctx: Context, s: BestScore | null | Error | undefined): PlayerChartScoreType | null {
  if (s instanceof Error) throw s;
  return s ? withCurrentBpi(ctx.app.catalogue, s) : null;
}

@Resolver()
export class RankingsResolver {
  @Query(() => SongRankingConnection, {
    description: "Players' best EX scores on a level 11/12 chart, best first; isSelf / selfRank refer to the caller",
  })
  songRanking(@Args(() => SongRankingArgs) args: SongRankingArgs, @Ctx() ctx: Context) {
    return rankingConnection(ctx, parseIntId(args.chartId, 'chartId'), args, ctx.viewer?.id ?? null);
  }

  @Query(() => SongRankingConnection, { description: 'songRanking in the context of a profile: isSelf / selfRank refer to userId' })
  userSongRanking(@Args(() => UserSongRankingArgs) args: UserSongRankingArgs, @Ctx() ctx: Context) {
    return rankingConnection(ctx, parseIntId(args.chartId, 'chartId'), args, args.userId);
  }

  @Query(() => [SimilarChartType], { description: 'Charts nearest by attribute-vector distance (limit 1–50, default 10)' })
  similarSongs(@Args(() => SimilarSongsArgs) args: SimilarSongsArgs, @Ctx() ctx: Context) {
    return similarCharts(ctx, args, null);
  }

  @Query(() => [SimilarChartType], { description: "similarSongs with the profile user's best scores attached" })
  userSimilarSongs(@Args(() => UserSimilarSongsArgs) args: UserSimilarSongsArgs, @Ctx() ctx: Context) {
    return similarCharts(ctx, args, args.userId);
  }

  @Query(() => ChartPopularityConnection, { description: 'Charts with many (MOST) or few (FEWEST) players in a version' })
  async popularCharts(@Args(() => PopularChartsArgs) args: PopularChartsArgs, @Ctx() ctx: Context): Promise<Page<ChartPopularityType>> {
    const page = await new RankingsService(ctx.db).popular(args.order ?? ChartPopularityOrder.MOST, args.version, args.level, args.first, args.after);
    const charts = await loadCharts(ctx, page.edges.map((e) => e.node.chartId));
    return { ...page, edges: page.edges.map((e, i) => ({ cursor: e.cursor, node: { chart: charts[i], playerCount: e.node.playerCount } })) };
  }

  @Query(() => ChartWithScoreConnection, {
    description: "The BPI song master list (level 11/12 charts in the version) with the profile user's best scores",
  })
  async userSongs(@Args(() => UserSongsArgs) args: UserSongsArgs, @Ctx() ctx: Context): Promise<Page<ChartWithScoreType>> {
    const { version, page } = new RankingsService(ctx.db).masterList(ctx.app.catalogue.charts(), args.version, args.first, args.after);
    const ids = page.edges.map((e) => e.node.id);
    const [charts, scores] = await Promise.all([
      loadCharts(ctx, ids),
      ctx.loaders.songsBestScore.loadMany(ids.map((id) => bestScoreKey(args.userId, version, id))),
    ]);
    return { ...page, edges: page.edges.map((e, i) => ({ cursor: e.cursor, node: { chart: charts[i], score: toScore(ctx, scores[i]) } })) };
  }

  @Mutation(() => ImportChartAttributesPayload, {
    description: 'Imports chart attribute vectors for similar songs (administrators); same as `cli charts import-attributes`',
  })
  importChartAttributes(@Arg('entries', () => [ChartAttributesInput]) entries: ChartAttributesInput[], @Ctx() ctx: Context) {
    return new RankingsService(ctx.db).importAttributes(
      entries.map((e) => ({ ...e, attributes: Object.fromEntries(e.attributes.map((a) => [a.name, a.value])) })),
    );
  }
}

@Resolver(() => ChartType)
export class ChartAttributesResolver {
  @FieldResolver(() => [ChartAttributeType], { nullable: true, description: 'Attribute vector used by similar songs (null: none imported)' })
  async attributes(@Root() chart: Chart, @Ctx() ctx: Context): Promise<ChartAttributeType[] | null> {
    // Roots are Prisma chart rows; anything narrower (e.g. a catalogue entry) is loaded.
    const raw = (chart as Partial<Chart>).attributes !== undefined ? chart.attributes : (await ctx.loaders.songsChartById.load(chart.id))?.attributes;
    const v = toAttributeVector(raw);
    return v ? Object.entries(v).map(([name, value]) => ({ name, value })) : null;
  }
}
