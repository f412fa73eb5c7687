import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { ChartType } from '../shared/chart.type';
import { SongType } from '../catalogue/catalogue.types';
import { ChartFields, PlayType } from './scores.types';

/**
 * The objects behind the ids of score-shaped types: every type built on ChartFields (ScoreEntry,
 * BestEverEntry, VersionComparisonEntry, UnplayedChart, RecommendedEntry, BatchScoreEntry) also
 * offers `chart` and `song`, read through the request's catalogue loaders (a page of 100 entries
 * adds one statement per loader, whatever the page size).
 */
@Resolver(() => ChartFields)
export class ChartFieldsEdgesResolver {
  @FieldResolver(() => ChartType, {
    nullable: true,
    description: 'The chart (`chartId`), through the request’s loader',
  })
  chart(@Root() entry: { chartId: number }, @Ctx() ctx: Context) {
    return ctx.services.catalogue.chart(entry.chartId);
  }

  @FieldResolver(() => SongType, { nullable: true, description: 'The song (`songId`), through the request’s loader' })
  song(@Root() entry: { songId: number }, @Ctx() ctx: Context) {
    return ctx.services.catalogue.song(entry.songId);
  }
}

/** The chart of a play (`chartId`), through the request's loader. */
@Resolver(() => PlayType)
export class PlayEdgesResolver {
  @FieldResolver(() => ChartType, {
    nullable: true,
    description: 'The chart played (`chartId`), through the request’s loader',
  })
  chart(@Root() play: { chartId: number }, @Ctx() ctx: Context) {
    return ctx.services.catalogue.chart(play.chartId);
  }
}
