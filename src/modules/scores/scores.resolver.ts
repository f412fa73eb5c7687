import { Arg, Args, Ctx, FieldResolver, Float, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { parseIntId } from '../../graphql/args';
import { BpiModel } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import {
  AllDifficultyScoresArgs,
  BestEverArgs,
  ImportScoresArgs,
  ImportScoresCsvArgs,
  MigrateLegacyArgs,
  ScoresArgs,
  UnplayedArgs,
  VersionComparisonArgs,
} from './scores.inputs';
import {
  BestEverEntryType,
  ImportScoresPayload,
  MigrateLegacyScoresPayload,
  PlayType,
  ScoreEntryConnection,
  ScoreEntryType,
  UnplayedChartConnection,
  VersionComparisonEntryType,
  VersionPlaysType,
} from './scores.types';

@Resolver()
export class ScoresMutationResolver {
  @Mutation(() => ImportScoresPayload, { description: 'Import normalized rows (≤ 10,000) as one batch, atomically' })
  importScores(
    @Args(() => ImportScoresArgs) args: ImportScoresArgs,
    @Ctx() ctx: Context,
  ): Promise<ImportScoresPayload> {
    return ctx.services.scores.importRows(args);
  }

  @Mutation(() => ImportScoresPayload, {
    description:
      'Import an export file (official CSV, Reflux TSV, daken counter, result techo, Tachi BATCH-MANUAL JSON; detected) as one batch',
  })
  importScoresCsv(
    @Args(() => ImportScoresCsvArgs) args: ImportScoresCsvArgs,
    @Ctx() ctx: Context,
  ): Promise<ImportScoresPayload> {
    return ctx.services.scores.importExport(args);
  }

  @Mutation(() => MigrateLegacyScoresPayload, {
    description: "Migrate the older app's export (replaces the previous migration; idempotent)",
  })
  migrateLegacyScores(
    @Args(() => MigrateLegacyArgs) args: MigrateLegacyArgs,
    @Ctx() ctx: Context,
  ): Promise<MigrateLegacyScoresPayload> {
    return ctx.services.scores.migrateLegacy(args.userId, args.data);
  }
}

/** The gate of the scores download (src/rest/export.ts runs it as the fixed document RestScoresExport). */
@Resolver()
export class ScoresExportResolver {
  @Query(() => UserType, {
    nullable: true,
    description:
      'The player whose scores file is downloaded (GET /api/v1/users/{userId}/scores/export): the owner, or an administrator with their own token, even for a public player; null when the user no longer exists',
  })
  scoresExportUser(
    @Arg('userId', () => ID, { description: 'The player (database id)' }) userId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.app.areas.access.user(ctx, userId);
  }
}

/** Score reads on User (rule: VISIBLE, masked to null — src/graphql/rules.ts). */
@Resolver(() => UserType)
export class ScoresUserResolver {
  @FieldResolver(() => ScoreEntryConnection, {
    nullable: true,
    description:
      'Bests on BPI charts in a version, as of a time (import time): filtered and sorted (default level desc, title); keyset pages',
  })
  scores(@Root() user: User, @Args(() => ScoresArgs) args: ScoresArgs, @Ctx() ctx: Context) {
    return ctx.services.scores.bestScores(user.id, args);
  }

  @FieldResolver(() => ScoreEntryType, {
    nullable: true,
    description: 'The best on one chart in a version (null: not played; an unknown chart is NOT_FOUND)',
  })
  bestOn(
    @Root() user: User,
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Arg('version', () => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
    version: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.bestEntry(user.id, parseIntId(chartId, 'chartId'), version);
  }

  @FieldResolver(() => ScoreEntryConnection, {
    nullable: true,
    description:
      "Bests of every difficulty and level, latest version played per chart: filtered and sorted; keyset pages. Provisional charts (learned from exports, not yet in the definitions) only in the player's own view",
  })
  allDifficultyScores(
    @Root() user: User,
    @Args(() => AllDifficultyScoresArgs) args: AllDifficultyScoresArgs,
    @Ctx() ctx: Context,
  ) {
    const ownView = ctx.viewer?.id === user.id || ctx.viewer?.isAdmin === true;
    return ctx.services.scores.allDifficultyScores(user.id, args, ownView);
  }

  @FieldResolver(() => [PlayType], {
    nullable: true,
    description: 'Every stored play of one chart, all versions, newest first',
  })
  chartHistory(
    @Root() user: User,
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.history.chartHistory(user.id, [parseIntId(chartId, 'chartId')]);
  }

  @FieldResolver(() => [VersionPlaysType], {
    nullable: true,
    description:
      "Every stored play of one chart grouped by version (the reference's history shape): versions in game order, plays newest first",
  })
  chartHistoryByVersion(
    @Root() user: User,
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.history.chartHistoryByVersion(user.id, parseIntId(chartId, 'chartId'));
  }

  @FieldResolver(() => [PlayType], {
    nullable: true,
    description: 'Every stored play of all difficulties of one song, all versions, newest first',
  })
  songHistory(
    @Root() user: User,
    @Arg('songId', () => ID, { description: 'The song (database id or global id)' }) songId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.history.songHistory(user.id, parseIntId(songId, 'songId'));
  }

  @FieldResolver(() => [BestEverEntryType], { nullable: true, description: 'Best EX per chart over all versions' })
  bestEver(@Root() user: User, @Args(() => BestEverArgs) args: BestEverArgs, @Ctx() ctx: Context) {
    return ctx.services.scores.history.bestEver(user.id, args.currentVersion, args.excludeCurrent);
  }

  @FieldResolver(() => [VersionComparisonEntryType], {
    nullable: true,
    description: 'Bests in currentVersion against targetVersion (BPI charts)',
  })
  versionComparison(
    @Root() user: User,
    @Args(() => VersionComparisonArgs) args: VersionComparisonArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.history.versionComparison(user.id, args.currentVersion, args.targetVersion);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description:
      'Total BPI of a version (default: the latest) under a model, computed now from the bests — V1: over the SP ☆12 charts with a current definition (as stats.totalBpi); V2: over the SP ☆12 charts with fitted V2 parameters, same formula (null when none is fitted); unplayed charts count −15. Null only for a player the caller may not see, or V2 without fitted charts',
  })
  totalBpi(
    @Root() user: User,
    @Arg('version', () => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
    version: string | null,
    @Arg('model', () => BpiModel, {
      defaultValue: BpiModel.V1,
      description: 'V1 (default): the current definition; V2: the fitted parameters (null when the chart has none)',
    })
    model: BpiModel,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.scores.totalBpi(user.id, version, model);
  }

  @FieldResolver(() => UnplayedChartConnection, {
    nullable: true,
    description: 'BPI charts available in the version and not played there: filtered and sorted; keyset pages',
  })
  unplayedCharts(@Root() user: User, @Args(() => UnplayedArgs) args: UnplayedArgs, @Ctx() ctx: Context) {
    return ctx.services.scores.unplayedCharts(user.id, args);
  }
}
