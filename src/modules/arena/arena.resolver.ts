import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Chart } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { parseJsonArgument } from '../../errors';
import { ChartType } from '../shared/chart.type';
import { ArenaAverageEntry, ArenaImportResult, OfficialArena } from './arena.types';
import { GameVersionScalar } from '../../graphql/scalars';

@Resolver(() => ChartType)
export class ChartArenaResolver {
  @FieldResolver(() => [ArenaAverageEntry], {
    nullable: true,
    description: 'Average EX, rate, count and BPI per arena class A1–A5 (level 11/12 charts)',
  })
  arenaAverages(
    @Root() chart: Chart,
    @Arg('version', () => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' })
    version: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.arena.chartAverages(chart, version);
  }
}

@Resolver()
export class ArenaResolver {
  @Query(() => OfficialArena, {
    nullable: true,
    description: 'Official arena class distribution (latest snapshot of the version)',
  })
  officialArena(
    @Arg('version', () => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' })
    version: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.arena.officialArena(version);
  }

  @Mutation(() => ArenaImportResult, { description: 'Admin: import an official arena ranking snapshot (JSON array)' })
  importOfficialArena(
    @Arg('json', () => String, {
      description: 'The ranking snapshot: a JSON array of players (game id, arena class, rank, area)',
    })
    json: string,
    @Arg('version', () => GameVersionScalar, {
      nullable: true,
      description: 'Game version of the snapshot (default the latest)',
    })
    version: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.arena.importOfficialArena(parseJsonArgument(json, 'json'), version);
  }
}
