import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Chart, Song } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { ConnectionArgs } from '../../graphql/connection';
import { GAME_VERSIONS, LATEST_VERSION } from '../../domain/constants';
import { SongFilter } from './songs.inputs';
import { SongsService } from './songs.service';
import { ChartDefinitionType, ChartType, ServerInfo, SongConnection, SongType } from './songs.types';
import pkg from '../../../package.json';

@Resolver(() => SongType)
export class SongsResolver {
  @Query(() => ServerInfo, { description: 'Server name, version, database kind and catalogue state' })
  serverInfo(@Ctx() ctx: Context): ServerInfo {
    return {
      name: 'bpigraph',
      version: pkg.version,
      database: ctx.app.database.kind,
      definitionsVersion: ctx.app.catalogue.definitionsVersion,
      chartCount: ctx.app.catalogue.size,
      gameVersions: [...GAME_VERSIONS],
      latestVersion: LATEST_VERSION,
    };
  }

  @Query(() => SongConnection, { description: 'The song catalogue, ordered by title' })
  songs(
    @Args(() => ConnectionArgs) { first, after }: ConnectionArgs,
    @Arg('filter', () => SongFilter, { nullable: true }) filter: SongFilter | null,
    @Ctx() ctx: Context,
  ) {
    return new SongsService(ctx.db).listSongs(filter, first, after);
  }

  @Query(() => SongType, { nullable: true })
  song(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const n = Number(id);
    return Number.isInteger(n) ? ctx.loaders.songById.load(n) : null;
  }

  @FieldResolver(() => [ChartType])
  charts(@Root() song: Song, @Ctx() ctx: Context) {
    return ctx.loaders.chartsBySongId.load(song.id);
  }
}

@Resolver(() => ChartType)
export class ChartsResolver {
  @Query(() => ChartType, { nullable: true })
  async chart(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const n = Number(id);
    if (!Number.isInteger(n)) return null;
    return ctx.db.chart.findUnique({ where: { id: n } });
  }

  @FieldResolver(() => SongType)
  song(@Root() chart: Chart, @Ctx() ctx: Context) {
    return ctx.loaders.songById.load(chart.songId);
  }

  @FieldResolver(() => ChartDefinitionType, { nullable: true, description: 'The definition in force (null: no BPI definition)' })
  definition(@Root() chart: Chart, @Ctx() ctx: Context): ChartDefinitionType | null {
    const d = ctx.app.catalogue.chart(chart.id)?.definition;
    return d ? { ...d, isCurrent: true } : null;
  }

  @FieldResolver(() => [ChartDefinitionType], { description: 'Every published definition of this chart, oldest first' })
  definitionHistory(@Root() chart: Chart, @Ctx() ctx: Context) {
    return ctx.loaders.definitionHistoryByChartId.load(chart.id);
  }
}
