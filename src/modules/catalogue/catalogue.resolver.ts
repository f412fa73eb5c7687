import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { BpiModel } from '../shared/enums';
import type { Chart, Song } from '../../generated/prisma/client';
import { intIdOrNull } from '../../graphql/args';
import { ConnectionArgs } from '../../graphql/connection';
import type { Context } from '../../graphql/context';
import { parseJsonArgument } from '../../errors';
import { ChartType } from '../shared/chart.type';
import { SongFilter } from './catalogue.inputs';
import {
  ExForBpiType,
  ChartDefinitionType,
  DefinitionsImportResult,
  RadarCategoryImportPayload,
  RecomputeStatus,
  BpiV2FitType,
  FitBpiV2Payload,
  ServerInfo,
  SongConnection,
  SongType,
  StartRecomputePayload,
} from './catalogue.types';
import { GameVersionScalar } from '../../graphql/scalars';

@Resolver(() => SongType)
export class SongsResolver {
  @Query(() => ServerInfo, { description: 'Server name, version, database kind and catalogue state' })
  serverInfo(@Ctx() ctx: Context): ServerInfo {
    return ctx.services.catalogue.serverInfo();
  }

  @Query(() => SongConnection, { description: 'The song catalogue, ordered by title' })
  songs(
    @Args(() => ConnectionArgs) { first, after }: ConnectionArgs,
    @Arg('filter', () => SongFilter, {
      nullable: true,
      description: 'Only songs with a chart of this level / difficulty / play style (default: every song)',
    })
    filter: SongFilter | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.listSongs(filter, first, after);
  }

  @Query(() => SongType, { nullable: true, description: 'One song by id (anyone); null when unknown' })
  song(@Arg('id', () => ID, { description: 'The song (database id or global id)' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.catalogue.publicSong(intIdOrNull(id));
  }

  @FieldResolver(() => [ChartType], {
    description:
      "The song's public charts (provisional ones learned from exports are not listed), SP then DP, easiest first",
  })
  charts(@Root() song: Song, @Ctx() ctx: Context) {
    return ctx.services.catalogue.chartsOfSong(song.id);
  }
}

@Resolver(() => ChartType)
export class ChartsResolver {
  @Query(() => ChartType, { nullable: true, description: 'One chart by id (anyone); null when unknown' })
  chart(@Arg('id', () => ID, { description: 'The chart (database id or global id)' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.catalogue.publicChart(intIdOrNull(id));
  }

  @FieldResolver(() => SongType, { description: 'The song the chart belongs to' })
  song(@Root() chart: Chart, @Ctx() ctx: Context) {
    return ctx.services.catalogue.song(chart.songId);
  }

  @FieldResolver(() => ChartDefinitionType, {
    nullable: true,
    description: 'The definition in force (null: no BPI definition)',
  })
  definition(@Root() chart: Chart, @Ctx() ctx: Context): ChartDefinitionType | null {
    return ctx.services.catalogue.currentDefinition(chart.id);
  }

  @FieldResolver(() => ExForBpiType, {
    nullable: true,
    description:
      'The EX score needed for a target BPI under the current definition (null: no BPI definition). Any finite bpi: ' +
      'the EX score is clamped to 0 … notes × 2 (a huge target gives the maximum, a very negative one 0)',
  })
  exForBpi(
    @Root() chart: Chart,
    @Arg('bpi', () => Float, { description: 'Target BPI, any finite number' }) bpi: number,
    @Arg('model', () => BpiModel, {
      defaultValue: BpiModel.V1,
      description: 'V2: under the fitted V2 parameters (null when the chart has none)',
    })
    model: BpiModel,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.exForBpi(chart.id, bpi, model);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description:
      'The BPI of an EX score on this chart (V1: current definition, null without one; V2: fitted parameters, null when the chart has none). exScore outside [0, 2·notes] is BAD_USER_INPUT',
  })
  bpi(
    @Root() chart: Chart,
    @Arg('exScore', () => Int, { description: 'EX score, 0 to 2·notes' }) exScore: number,
    @Arg('model', () => BpiModel, {
      defaultValue: BpiModel.V1,
      description: 'V1 (default): the current definition; V2: the fitted parameters (null when the chart has none)',
    })
    model: BpiModel,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.bpiOf(chart.id, exScore, model);
  }

  @FieldResolver(() => [ChartDefinitionType], { description: 'Every published definition of this chart, oldest first' })
  definitionHistory(@Root() chart: Chart, @Ctx() ctx: Context) {
    return ctx.services.catalogue.definitionHistory(chart.id);
  }
}

/** Administration of the catalogue: definitions updates, the recompute job, radar categories. */
@Resolver()
export class CatalogueAdminResolver {
  @Mutation(() => DefinitionsImportResult, {
    description: 'Admin: import a published BPI definitions file (JSON text)',
  })
  importDefinitions(
    @Arg('json', () => String, {
      description:
        'A definitions release: the JSON document of the reference (version + one entry per chart with wr, avg, notes, coef)',
    })
    json: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.importDefinitions(parseJsonArgument(json, 'json'));
  }

  @Mutation(() => StartRecomputePayload, {
    description:
      'Admin: start the recompute of derived values (totals, arena averages, rankings) of a version; a run already going on is left alone',
  })
  async startRecompute(
    @Arg('version', () => GameVersionScalar, {
      nullable: true,
      description: 'Game version to recompute (default the latest)',
    })
    version: string | null,
    @Ctx() ctx: Context,
  ): Promise<StartRecomputePayload> {
    const started = await ctx.services.catalogue.recompute(version);
    return { started, status: await ctx.services.catalogue.recomputeStatus() };
  }

  @Mutation(() => Boolean, {
    description: 'Admin: recompute derived values (totals, arena averages); false when already running',
    deprecationReason: 'Use startRecompute (mutations return payload types); removed in the next release',
  })
  recompute(
    @Arg('version', () => GameVersionScalar, {
      nullable: true,
      description: 'Game version to recompute (default the latest)',
    })
    version: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.recompute(version);
  }

  @Query(() => RecomputeStatus, { description: 'Admin: progress of the recompute job' })
  recomputeStatus(@Ctx() ctx: Context) {
    return ctx.services.catalogue.recomputeStatus();
  }

  @Mutation(() => FitBpiV2Payload, {
    description:
      'Admin: fit BPI V2 from the bests of a game version (default: the latest) for the current definitions vintage, in the background (progress: bpiV2FitStatus); started false when a fit is already running',
  })
  async fitBpiV2(
    @Arg('version', () => GameVersionScalar, {
      nullable: true,
      description: 'Game version whose bests are read (default: the latest)',
    })
    version: string | null,
    @Arg('evaluate', () => Boolean, {
      nullable: true,
      defaultValue: true,
      description: 'Also measure the held-out quality (a second fit; default true)',
    })
    evaluate: boolean,
    @Arg('minPlayersPerChart', () => Int, {
      nullable: true,
      description: 'Charts with fewer fitted players get no parameters (default 30, at least 3)',
    })
    minPlayersPerChart: number | null,
    @Ctx() ctx: Context,
  ): Promise<FitBpiV2Payload> {
    const started = await ctx.services.catalogue.fitBpiV2({ version, evaluate, minPlayersPerChart });
    return { started, status: await ctx.services.catalogue.bpiV2FitStatus() };
  }

  @Query(() => BpiV2FitType, {
    nullable: true,
    description: 'Admin: the latest BPI V2 fit run (running or finished; null: never run)',
  })
  bpiV2FitStatus(@Ctx() ctx: Context) {
    return ctx.services.catalogue.bpiV2FitStatus();
  }

  @Query(() => BpiV2FitType, {
    nullable: true,
    description:
      'The BPI V2 fit in force: the latest succeeded run of the current definitions vintage, with its quality (null: V2 not fitted yet)',
  })
  bpiV2Fit(@Ctx() ctx: Context) {
    return ctx.services.catalogue.bpiV2Fit();
  }

  @Mutation(() => RadarCategoryImportPayload, {
    description: 'Admin: import radar categories from JSON text [{title, difficulty, top}]',
  })
  importRadarCategories(
    @Arg('json', () => String, {
      description: 'JSON array of {title, difficulty, top}: the radar category of each SP chart',
    })
    json: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.importRadarCategories(parseJsonArgument(json, 'json'));
  }
}
