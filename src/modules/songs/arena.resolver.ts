import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Chart } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { LATEST_VERSION } from '../../domain/constants';
import { parseJsonArgument } from '../../errors';
import { ArenaAverageEntry } from '../bpicalc/bpicalc.types';
import { importOfficialArena, officialArenaDistribution } from './arena.service';
import { ArenaImportResult, DefinitionsImportResult, OfficialArena, RecomputeStatus } from './arena.types';
import { ChartType } from './songs.types';
import { updateDefinitions } from './definitions.service';


@Resolver(() => ChartType)
export class ChartArenaResolver {
  @FieldResolver(() => [ArenaAverageEntry], { nullable: true, description: 'Average EX, rate, count and BPI per arena class A1–A5 (level 11/12 charts)' })
  arenaAverages(@Root() chart: Chart, @Arg('version', () => String, { nullable: true }) version: string | null, @Ctx() ctx: Context) {
    if (chart.level < 11) return null;
    return ctx.app.arenaAverages.forChart(chart.id, version ?? LATEST_VERSION);
  }
}

@Resolver()
export class ArenaResolver {
  @Query(() => OfficialArena, { nullable: true, description: 'Official arena class distribution (latest snapshot of the version)' })
  officialArena(@Arg('version', () => String, { nullable: true }) version: string | null, @Ctx() ctx: Context) {
    return officialArenaDistribution(ctx.db, version ?? LATEST_VERSION);
  }

  @Mutation(() => ArenaImportResult, { description: 'Admin: import an official arena ranking snapshot (JSON array)' })
  async importOfficialArena(
    @Arg('json', () => String) json: string,
    @Arg('version', () => String, { nullable: true }) version: string | null,
    @Ctx() ctx: Context,
  ) {
    const r = await importOfficialArena(ctx.db, parseJsonArgument(json, 'json'), version ?? LATEST_VERSION);
    ctx.app.recompute.start([r.version]);
    return { ...r, skipped: r.skipped.length };
  }

  @Mutation(() => DefinitionsImportResult, { description: 'Admin: import a published BPI definitions file (JSON text)' })
  async importDefinitions(@Arg('json', () => String) json: string, @Ctx() ctx: Context) {
    const { report, recomputeStarted } = await updateDefinitions(ctx.app, parseJsonArgument(json, 'json'));
    return {
      ...report,
      problems: report.problems.map((p) => `entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`),
      recomputeStarted,
    };
  }

  @Mutation(() => Boolean, { description: 'Admin: recompute derived values (totals, arena averages); false when already running' })
  recompute(@Arg('version', () => String, { nullable: true }) version: string | null, @Ctx() ctx: Context) {
    return ctx.app.recompute.start(version ? [version] : undefined);
  }

  @Query(() => RecomputeStatus, { description: 'Admin: progress of the recompute job' })
  recomputeStatus(@Ctx() ctx: Context) {
    return ctx.app.recompute.state;
  }
}
