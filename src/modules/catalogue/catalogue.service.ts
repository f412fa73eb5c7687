import type { Prisma, Song } from '../../generated/prisma/client';
import { badInput } from '../../errors';
import { keyset, parseFiniteBpi, parseVersion, requireVersion } from '../../graphql/args';
import { BpiModel } from '../../domain/constants';
import { exScoreForBpi, round2 } from '../../domain/bpi';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';

/** Cursor kinds of the song list: [title, song id]. */
const SONG_KEY = ['str', 'int'] as const;
import { GAME_VERSIONS, LATEST_VERSION, type Difficulty, type PlayStyle } from '../../domain/constants';
import type { AreaScope } from '../area';
import { importRadarCategories, type RadarCategoryImportReport } from './categories.service';
import { updateDefinitions } from './definitions.service';
import { CATALOGUE_CACHE } from './catalogue';
import { adoptProvisional, listProvisional, purgeProvisional } from './provisional.service';
import pkg from '../../../package.json';

export interface SongFilterInput {
  title?: string | null;
  level?: number | null;
  difficulty?: Difficulty | null;
  playStyle?: PlayStyle | null;
  releasedVersion?: number | null;
  availableIn?: string | null;
}

type Scope = Pick<AreaScope, 'db' | 'database' | 'catalogue' | 'caches' | 'events' | 'recompute' | 'bpiV2' | 'loaders'>;

/** The catalogue: songs, charts and their definitions; definitions updates and the recompute job; radar categories. */
export class CatalogueService {
  constructor(private readonly s: Scope) {}

  serverInfo() {
    return {
      name: 'bpigraph',
      version: pkg.version,
      database: this.s.database.kind,
      definitionsVersion: this.s.catalogue.definitionsVersion,
      chartCount: this.s.catalogue.size,
      gameVersions: [...GAME_VERSIONS],
      latestVersion: LATEST_VERSION,
    };
  }

  /** Songs ordered by title (keyset cursor over title, id). */
  async listSongs(
    filter: SongFilterInput | null | undefined,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<Page<Song>> {
    const ks = keyset({ first, after }, 'songs', SONG_KEY);
    const size = ks.size;
    if (filter?.level != null && (filter.level < 1 || filter.level > 12))
      throw badInput('level must be between 1 and 12');
    // the public catalogue: provisional songs and charts are never listed (docs/imports-provisional.md)
    const chartWhere: Prisma.ChartWhereInput = { provisional: false };
    if (filter?.level != null) chartWhere.level = filter.level;
    if (filter?.difficulty) chartWhere.difficulty = filter.difficulty;
    if (filter?.playStyle) chartWhere.playStyle = filter.playStyle;
    if (filter?.releasedVersion != null) chartWhere.releasedVersion = filter.releasedVersion;
    if (filter?.availableIn != null) {
      const version = requireVersion(filter.availableIn, 'filter.availableIn');
      // src/domain/totals.ts availableIn, in SQL: released ≤ V (or unknown), removal null or a later number
      if (version !== 'INF') {
        const v = Number(version);
        const rows = await this.s.db.$queryRaw<{ id: number }[]>`
          SELECT "id" FROM "Chart"
          WHERE ("releasedVersion" IS NULL OR "releasedVersion" <= ${v})
            AND ("removedInVersion" IS NULL
              OR CASE WHEN "removedInVersion" ~ '^[0-9]{1,6}$' THEN "removedInVersion"::int > ${v} ELSE false END)`;
        chartWhere.id = { in: rows.map((r) => r.id) };
      }
    }
    const where: Prisma.SongWhereInput = { provisional: false };
    if (Object.keys(chartWhere).length > 1) where.charts = { some: chartWhere };
    if (filter?.title) where.title = { contains: filter.title, mode: 'insensitive' };
    const cursorWhere: Prisma.SongWhereInput = {};
    if (ks.key) {
      const [title, id] = ks.key;
      cursorWhere.OR = [{ title: { gt: title } }, { title, id: { gt: id } }];
    }
    const [rows, totalCount] = await Promise.all([
      this.s.db.song.findMany({
        where: { AND: [where, cursorWhere] },
        orderBy: [{ title: 'asc' }, { id: 'asc' }],
        take: size + 1,
      }),
      this.s.db.song.count({ where }),
    ]);
    return keysetConnection(rows, ks, (s) => keyCursor('songs', SONG_KEY, [s.title, s.id]), totalCount);
  }

  song(id: number | null) {
    return id === null ? null : this.s.loaders.catalogue.songs.load(id);
  }

  /** A song of the PUBLIC catalogue by id (Query.song, node): null for an unknown or provisional song. */
  async publicSong(id: number | null) {
    const song = await this.song(id);
    return song && !song.provisional ? song : null;
  }

  /** A chart of the PUBLIC catalogue by id (Query.chart, node): null for an unknown or provisional chart. */
  async publicChart(id: number | null) {
    const chart = await this.chart(id);
    return chart && !chart.provisional ? chart : null;
  }

  /** A chart row by id (batched per request); null for an unknown id. */
  chart(id: number | null) {
    return id === null ? null : this.s.loaders.catalogue.charts.load(id);
  }

  /** A chart from the in-memory catalogue (current definition; no query), or null. */
  catalogueChart(id: number) {
    return this.s.catalogue.chart(id) ?? null;
  }

  chartsOfSong(songId: number) {
    return this.s.loaders.catalogue.chartsOfSong.load(songId);
  }

  /**
   * The EX score needed for a target BPI under the chart's current definition (null: no definition).
   * Any finite target: the answer is clamped to 0 … notes × 2, as the reference's inverse.
   * Model V2: the fitted parameters (null: the chart has none).
   */
  exForBpi(chartId: number, target: number, model: BpiModel = BpiModel.V1) {
    const t = parseFiniteBpi(target, 'bpi');
    const { catalogue } = this.s;
    const c = catalogue.chart(chartId);
    const v2 = model === BpiModel.V2;
    const exScore = v2 ? catalogue.exScoreForBpiV2(chartId, t) : c?.definition ? exScoreForBpi(t, c.definition) : null;
    if (!c || exScore === null) return null;
    const max = (c.definition?.notes ?? c.notes) * 2;
    const bpi = v2 ? catalogue.currentBpiV2(chartId, exScore) : catalogue.currentBpi(chartId, exScore);
    return {
      targetBpi: t,
      exScore,
      bpi,
      rate: max > 0 ? exScore / max : 0,
      reachable: bpi !== null && bpi >= round2(t),
    };
  }

  /** The definition in force (from the in-memory catalogue); null: no BPI definition. */
  currentDefinition(chartId: number) {
    const d = this.s.catalogue.chart(chartId)?.definition;
    return d ? { ...d, isCurrent: true } : null;
  }

  definitionHistory(chartId: number) {
    return this.s.loaders.catalogue.definitionHistory.load(chartId);
  }

  /** A definitions file: import, reload the catalogue, start the recompute job when anything changed. */
  async importDefinitions(doc: unknown) {
    const { report, recomputeStarted } = await updateDefinitions(this.s, doc);
    return {
      ...report,
      problems: report.problems.map((p) => `entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`),
      recomputeStarted,
    };
  }

  /** Radar categories [{title, difficulty, top}]; the catalogue is reloaded in every process either way (the CLI may have changed them). */
  async importRadarCategories(doc: unknown): Promise<RadarCategoryImportReport> {
    const report = await importRadarCategories(this.s.db, doc);
    await this.s.caches.changed(CATALOGUE_CACHE);
    return report;
  }

  /** Provisional charts, newest first (admin). */
  provisionalCharts(limit: number) {
    return listProvisional(this.s.db, limit);
  }

  /** Adopts provisional charts (all or nothing); every process reloads its catalogue. */
  async adoptProvisional(chartIds: number[]) {
    const ids = await adoptProvisional(this.s.db, chartIds);
    await this.s.caches.changed(CATALOGUE_CACHE);
    return { chartIds: ids, count: ids.length };
  }

  /** Deletes provisional charts with their plays (all or nothing); every process reloads its catalogue. */
  async purgeProvisional(chartIds: number[]) {
    const ids = await purgeProvisional(this.s.db, chartIds);
    await this.s.caches.changed(CATALOGUE_CACHE);
    return { chartIds: ids, count: ids.length };
  }

  /** Starts the recompute job (false when one is running in any process). */
  recompute(version: string | null | undefined): Promise<boolean> {
    return this.s.recompute.start(version ? [version] : undefined);
  }

  /** The recompute job's state as the whole cluster sees it. */
  recomputeStatus() {
    return this.s.recompute.status();
  }

  /** Starts the BPI V2 fit (false when one is running in any process). */
  fitBpiV2(args: {
    version?: string | null;
    evaluate?: boolean | null;
    minPlayersPerChart?: number | null;
  }): Promise<boolean> {
    const version = parseVersion(args.version);
    return this.s.bpiV2.start({
      version,
      evaluate: args.evaluate ?? true,
      minPlayersPerChart: args.minPlayersPerChart ?? undefined,
    });
  }

  /** The latest BPI V2 fit run, as the cluster sees it. */
  bpiV2FitStatus() {
    return this.s.bpiV2.status();
  }

  /** The BPI V2 fit in force (the latest succeeded run of the current vintage). */
  bpiV2Fit() {
    return this.s.bpiV2.inForce();
  }

  /**
   * The BPI a score-shaped field serves under `model`: V1 is the value the entry already carries
   * (current definition); V2 is the fitted model's for the same best (null: chart not fitted).
   */
  bpiUnder(
    model: BpiModel | null | undefined,
    entry: { chartId: number; exScore: number; bpi: number | null },
  ): number | null {
    return model === BpiModel.V2 ? this.s.catalogue.currentBpiV2(entry.chartId, entry.exScore) : entry.bpi;
  }

  /** BPI of an EX score on a chart under a model (null: no definition / no V2 parameters); over the max is BAD_USER_INPUT. */
  bpiOf(chartId: number, exScore: number, model: BpiModel) {
    const c = this.s.catalogue.chart(chartId);
    if (!c) return null;
    const notes = c.definition?.notes ?? c.notes;
    if (!Number.isInteger(exScore) || exScore < 0 || (notes > 0 && exScore > notes * 2)) {
      throw badInput(`exScore must be an integer in [0, ${notes * 2}]`, [
        { code: 'out_of_range', path: ['exScore'], message: `0 to ${notes * 2}` },
      ]);
    }
    return model === BpiModel.V2
      ? this.s.catalogue.currentBpiV2(chartId, exScore)
      : this.s.catalogue.currentBpi(chartId, exScore);
  }
}
