/**
 * The score import's types (import.service.ts, its pure steps in import-steps.ts): what a caller
 * passes and gets back, the catalogue and dependencies it needs, the rows between the steps.
 */
import type { ClusterCaches } from '../../cluster/caches';
import type { Db } from '../../db/client';
import type { Difficulty, PlayStyle } from '../../domain/constants';
import type { ParseIssue, TitleCorrections } from '../../domain/csv';
import type { NewTitleLimits } from '../../domain/new-titles';
import type { EventBus } from '../../events';
import type { ImportSource } from '../../generated/prisma/enums';
import type { WorkerPool } from '../../workers/pool';
import type { CatalogueChart, CatalogueSong } from '../catalogue/catalogue';
import type { ImportRow } from './parse-export';
import type { ChartLookup, PlayerLockObserver } from './totals.service';

export interface ImportProblem {
  line: number;
  title?: string;
  difficulty?: string;
  column?: string;
  /** the offending value as written */
  value?: string;
  reason: string;
  severity: 'error' | 'warning';
}

export interface ImportReport {
  /** null when nothing was written (already up to date) */
  batchId: string | null;
  upToDate: boolean;
  message: string;
  format: string;
  rowCount: number;
  /** plays stored (improved some field), all charts */
  updatedCount: number;
  /** plays stored on charts with a BPI definition */
  bpiUpdatedCount: number;
  previousTotalBpi: number;
  newTotalBpi: number;
  notFound: { line: number; title: string; playStyle: PlayStyle; difficulty: string }[];
  problems: ImportProblem[];
  /** charts the catalogue learned from this export (not in the BPI definitions; no BPI) */
  learnedCharts: number;
  /** charts without a play in the export (NO PLAY, zero score) */
  skipped: number;
  chartIds: number[];
}

export interface ImportInput {
  userId: string;
  version: string;
  source: ImportSource;
  format?: string;
  rows: ImportRow[];
  /** problems found while parsing (reported with the result) */
  parseIssues?: ParseIssue[];
  skipped?: number;
  corrections?: TitleCorrections;
  now?: Date;
  onProgress?: (done: number, total: number) => void;
  /** Test hook: runs inside the transaction after the plays are inserted (throwing aborts the import). */
  afterPlaysInserted?: () => Promise<void> | void;
}

/** The catalogue as the import sees it: charts by id and by title + difficulty (ChartMatcher), current BPIs. */
export type ImportCatalogue = ChartLookup & {
  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): CatalogueChart | undefined;
  /** Reloads the catalogue (after charts were learned from an export). */
  reload?(): Promise<void>;
  /** Every chart, provisional ones included (absent: charts()). */
  allCharts?(): IterableIterator<CatalogueChart>;
  /** The song with this title's key (absent: none known; learned songs take the key as title). */
  song?(title: string): CatalogueSong | undefined;
  /** Loads it afresh (after a definitions import made it stale: ./current-definitions.ts). */
  load?(): Promise<void>;
};

export interface ImportDeps {
  db: Db;
  catalogue: ImportCatalogue;
  events?: EventBus;
  /** The cluster's caches: learned charts reload the catalogue in every process (absent: this process only). */
  caches?: Pick<ClusterCaches, 'changed'>;
  /** New-title caps (config.newTitles; absent: DEFAULT_NEW_TITLE_LIMITS). */
  config?: { newTitles?: NewTitleLimits };
  /** Test seam: told when the import's transaction took the player's lock (PlayerLockObserver). */
  onPlayerLocked?: PlayerLockObserver;
  /** The worker pool export files are parsed in (absent: parsed on the calling thread). */
  pool?: Pick<WorkerPool, 'run'>;
}

/** A row matched to its chart, ready to compare with the player's best. */
export interface MatchedRow {
  row: ImportRow;
  chart: CatalogueChart;
  playedAt: Date;
  /** The play's BPI with the definition in force now (stored on the play: Score.bpi). */
  bpi: number | null;
  /** The chart is learned from the export by this import (`chart.id` is temporary until it is created). */
  learned?: boolean;
  /** Title key of a song not in the public catalogue (a new title for the caps: src/domain/new-titles.ts). */
  newTitle?: string;
}

/** A matched row that improves the running best: it becomes a play (`tempId` until inserted). */
export interface Candidate extends MatchedRow {
  tempId: number;
}
