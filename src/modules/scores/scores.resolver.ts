import { Args, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { CsvFormatError, formatFitsVersion, parseScoreExport, type CsvFormat } from '../../domain/csv';
import { badInput, forbidden } from '../../errors';
import { offsetFromCursor, offsetPage, pageSize } from '../../graphql/connection';
import type { Context } from '../../graphql/context';
import { canView } from '../../graphql/rules';
import type { ImportSource } from '../../generated/prisma/enums';
import { UserType } from '../users/users.types';
import { loadTitleCorrections } from './corrections';
import { loaderSource } from './scores.loaders';
import { importScores, MAX_IMPORT_ROWS, type ImportRow } from './import.service';
import { migrateLegacyScores } from './migrate.service';
import {
  AllDifficultyScoresArgs,
  BestEverArgs,
  ImportScoresArgs,
  ImportScoresCsvArgs,
  MigrateLegacyArgs,
  RecommendedArgs,
  ScoresArgs,
  TotalBpiHistoryArgs,
  UnplayedArgs,
  VersionComparisonArgs,
} from './scores.inputs';
import * as svc from './scores.service';
import {
  BestEverEntryType,
  ImportScoresPayload,
  MigrateLegacyScoresPayload,
  PlayType,
  RecommendedType,
  ScoreEntryConnection,
  TotalBpiHistoryPointType,
  UnplayedChartConnection,
  VersionComparisonEntryType,
} from './scores.types';
import { Arg, Int } from 'type-graphql';

const SOURCE: Record<CsvFormat, ImportSource> = {
  official: 'OFFICIAL_CSV',
  reflux: 'REFLUX',
  daken_counter: 'DAKEN_COUNTER',
  result_techo: 'RESULT_TECHO',
};

/**
 * User fields are read under the VISIBLE rule's predicate (canView), as the root rule table does:
 * a root read of a private user is refused by the table; a player the viewer may not see inside a
 * nested list (followers…) gets null for these fields, like the profile fields, so one masked
 * player never wipes out the list around it.
 */

/** Title predicate for repairing unquoted titles with commas in official CSVs. */
export function catalogueTitles(catalogue: Context['app']['catalogue']): (title: string) => boolean {
  const titles = new Set<string>();
  for (const c of catalogue.charts()) titles.add(c.title);
  return (t) => titles.has(t);
}

export const formatMismatch = (format: CsvFormat, version: string) =>
  version === 'INF'
    ? `A ${format} export is arcade data: INF takes Reflux, daken counter or result techo exports`
    : `A ${format} export is INFINITAS data: import it with version INF (version ${version} takes the official CSV)`;

const deps = (ctx: Context) => ({ db: ctx.db, catalogue: ctx.app.catalogue, events: ctx.app.events });

@Resolver()
export class ScoresMutationResolver {
  @Mutation(() => ImportScoresPayload, { description: 'Import normalized rows (≤ 10,000) as one batch, atomically' })
  async importScores(@Args(() => ImportScoresArgs) args: ImportScoresArgs, @Ctx() ctx: Context): Promise<ImportScoresPayload> {
    if (args.rows.length > MAX_IMPORT_ROWS) throw badInput(`At most ${MAX_IMPORT_ROWS} rows per import`, [{ code: 'too_big', path: ['rows'], message: `At most ${MAX_IMPORT_ROWS} rows` }]);
    const problems: { line: number; title: string; difficulty: string; column: string; reason: string; severity: 'error' }[] = [];
    const rows: ImportRow[] = [];
    args.rows.forEach((r, i) => {
      const clearLamp = svc.lampOf(r.clearState);
      if (!clearLamp) return void problems.push({ line: i + 1, title: r.title, difficulty: r.difficulty, column: 'clearState', reason: `unknown clear state ${JSON.stringify(r.clearState)}`, severity: 'error' });
      rows.push({ line: i + 1, title: r.title, difficulty: r.difficulty, exScore: r.exScore, clearLamp: clearLamp === 'NO_PLAY' ? null : clearLamp, missCount: r.missCount ?? null, lastPlayed: r.lastPlayed ?? null });
    });
    return importScores(deps(ctx), {
      userId: args.userId,
      version: args.version,
      source: 'ROWS',
      format: 'rows',
      rows,
      parseIssues: problems,
      corrections: loadTitleCorrections(ctx.app.config.titleCorrectionsFile),
    });
  }

  @Mutation(() => ImportScoresPayload, { description: 'Import an export file (official CSV, Reflux TSV, daken counter, result techo; detected) as one batch' })
  async importScoresCsv(@Args(() => ImportScoresCsvArgs) args: ImportScoresCsvArgs, @Ctx() ctx: Context): Promise<ImportScoresPayload> {
    svc.resolveVersion(args.version);
    const corrections = loadTitleCorrections(ctx.app.config.titleCorrectionsFile);
    let parsed;
    try {
      parsed = parseScoreExport(args.csv, { corrections, knownTitle: catalogueTitles(ctx.app.catalogue) });
    } catch (err) {
      if (err instanceof CsvFormatError) throw badInput(err.message, [{ code: 'invalid_format', path: ['csv', err.line], message: err.message }]);
      throw err;
    }
    if (!formatFitsVersion(parsed.format, args.version)) throw badInput(formatMismatch(parsed.format, args.version), [{ code: 'format_version_mismatch', path: ['version'], message: formatMismatch(parsed.format, args.version) }]);
    return importScores(deps(ctx), {
      userId: args.userId,
      version: args.version,
      source: SOURCE[parsed.format],
      format: parsed.format,
      rows: parsed.rows,
      parseIssues: parsed.issues,
      skipped: parsed.skipped,
      corrections,
    });
  }

  @Mutation(() => MigrateLegacyScoresPayload, { description: "Migrate the older app's export (replaces the previous migration; idempotent)" })
  migrateLegacyScores(@Args(() => MigrateLegacyArgs) args: MigrateLegacyArgs, @Ctx() ctx: Context): Promise<MigrateLegacyScoresPayload> {
    return migrateLegacyScores(deps(ctx), args.userId, args.data, ctx.app.config.migrationMaxBytes);
  }
}

@Resolver(() => UserType)
export class ScoresUserResolver {
  @FieldResolver(() => ScoreEntryConnection, { nullable: true, description: 'Bests per chart in a version, as of a time (import time); level desc, title' })
  async scores(@Root() user: UserType, @Args(() => ScoresArgs) args: ScoresArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const version = svc.resolveVersion(args.version);
    const size = pageSize(args.first);
    const offset = offsetFromCursor(args.after);
    const all = await svc.bestScores(ctx.db, ctx.app.catalogue, user.id, version, { levels: args.levels, difficulties: args.difficulties }, args.asOf, loaderSource(ctx.loaders));
    return offsetPage(all.slice(offset, offset + size + 1), offset, size, all.length);
  }

  @FieldResolver(() => ScoreEntryConnection, { nullable: true, description: 'Bests of every difficulty and level, latest version played per chart' })
  async allDifficultyScores(@Root() user: UserType, @Args(() => AllDifficultyScoresArgs) args: AllDifficultyScoresArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const size = pageSize(args.first);
    const offset = offsetFromCursor(args.after);
    const all = await svc.allDifficultyScores(ctx.db, ctx.app.catalogue, user.id, { levels: args.levels, difficulties: args.difficulties });
    return offsetPage(all.slice(offset, offset + size + 1), offset, size, all.length);
  }

  @FieldResolver(() => [PlayType], { nullable: true, description: 'Every stored play of one chart, all versions, newest first' })
  async chartHistory(@Root() user: UserType, @Arg('chartId', () => Int) chartId: number, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.chartHistory(ctx.db, ctx.app.catalogue, user.id, [chartId]);
  }

  @FieldResolver(() => [PlayType], { nullable: true, description: 'Every stored play of all difficulties of one song, all versions, newest first' })
  async songHistory(@Root() user: UserType, @Arg('songId', () => Int) songId: number, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const ids = [...ctx.app.catalogue.charts()].filter((c) => c.songId === songId).map((c) => c.id);
    return svc.chartHistory(ctx.db, ctx.app.catalogue, user.id, ids);
  }

  @FieldResolver(() => [BestEverEntryType], { nullable: true, description: 'Best EX per chart over all versions' })
  async bestEver(@Root() user: UserType, @Args(() => BestEverArgs) args: BestEverArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.bestEver(ctx.db, ctx.app.catalogue, user.id, svc.resolveVersion(args.currentVersion, 'currentVersion'), args.excludeCurrent);
  }

  @FieldResolver(() => [VersionComparisonEntryType], { nullable: true, description: 'Bests in currentVersion against targetVersion (BPI charts)' })
  async versionComparison(@Root() user: UserType, @Args(() => VersionComparisonArgs) args: VersionComparisonArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.versionComparison(ctx.db, ctx.app.catalogue, user.id, svc.resolveVersion(args.currentVersion, 'currentVersion'), svc.resolveVersion(args.targetVersion, 'targetVersion'));
  }

  @FieldResolver(() => UnplayedChartConnection, { nullable: true, description: 'BPI charts available in the version and not played there' })
  async unplayedCharts(@Root() user: UserType, @Args(() => UnplayedArgs) args: UnplayedArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const size = pageSize(args.first);
    const offset = offsetFromCursor(args.after);
    const all = await svc.unplayed(ctx.db, ctx.app.catalogue, user.id, svc.resolveVersion(args.version), { levels: args.levels, difficulties: args.difficulties }, loaderSource(ctx.loaders));
    return offsetPage(all.slice(offset, offset + size + 1), offset, size, all.length);
  }

  @FieldResolver(() => RecommendedType, { nullable: true, description: 'Weapons and potential (domain-stats §3.8); a chart without BPI counts as -15' })
  async recommended(@Root() user: Pick<UserType, 'id'>, @Args(() => RecommendedArgs) args: RecommendedArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.recommended(ctx.db, ctx.app.catalogue, user.id, args, loaderSource(ctx.loaders));
  }

  @FieldResolver(() => [TotalBpiHistoryPointType], { nullable: true, description: 'Daily (weekly, monthly) total BPI trend by play time (JST days)' })
  async totalBpiHistory(@Root() user: UserType, @Args(() => TotalBpiHistoryArgs) args: TotalBpiHistoryArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.totalBpiHistory(ctx.db, ctx.app.catalogue, user.id, svc.resolveVersion(args.version), args.groupBy ?? 'day');
  }
}
