import {
  BPI_DIFFICULTIES,
  GAME_VERSIONS,
  isGameVersion,
  LATEST_VERSION,
  PlayStyle,
  versionIndex,
  type Difficulty,
} from '../../domain/constants';
import { calcBpi, estimateRankFromTotal, ExScoreOverMaxError } from '../../domain/bpi';
import { AppError, badInput, notFound, type ErrorIssue } from '../../errors';
import type { AreaScope } from '../area';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { ArenaAverageView } from '../arena/arena.cache';

export interface BpiCalcInput {
  title: string;
  difficulty: Difficulty;
  exScore: number;
  version?: string | null;
  includeRank?: boolean | null;
}

const isAvailable = (c: CatalogueChart) => {
  if (!c.removedInVersion) return true;
  const at = versionIndex(c.removedInVersion);
  return at >= 0 && at > versionIndex(LATEST_VERSION);
};

/**
 * The single-song BPI calculator. Chart lookup and definitions come from the in-memory catalogue
 * and arena averages from their in-memory cache; only includeRank reads the database.
 */
export class BpiCalcService {
  constructor(private readonly s: Pick<AreaScope, 'db' | 'catalogue' | 'arenaAverages'>) {}

  validate(input: BpiCalcInput): void {
    const issues: ErrorIssue[] = [];
    if (typeof input.title !== 'string' || input.title.length === 0)
      issues.push({ code: 'too_small', path: ['title'], message: 'title is required' });
    if (!(BPI_DIFFICULTIES as readonly string[]).includes(input.difficulty)) {
      issues.push({
        code: 'invalid_value',
        path: ['difficulty'],
        message: 'difficulty must be one of HYPER, ANOTHER, LEGGENDARIA',
      });
    }
    if (!Number.isInteger(input.exScore) || input.exScore < 0)
      issues.push({ code: 'too_small', path: ['exScore'], message: 'exScore must be an integer ≥ 0' });
    if (input.version != null && !isGameVersion(input.version)) {
      issues.push({
        code: 'invalid_value',
        path: ['version'],
        message: `version must be one of ${GAME_VERSIONS.join(', ')}`,
      });
    }
    if (issues.length) throw new AppError('BAD_USER_INPUT', 'Invalid parameters', { issues });
  }

  /**
   * The calculator's answer. Not async: with the arena averages in memory and no rank asked for
   * (the usual call) it answers with no promise at all — the GraphQL executor and the REST route
   * then run the whole request synchronously; otherwise a promise. Bad input throws.
   */
  calc(input: BpiCalcInput): BpiCalcAnswer | Promise<BpiCalcAnswer> {
    this.validate(input);
    const version = input.version ?? LATEST_VERSION;
    const chart = this.s.catalogue.find(input.title, PlayStyle.SP, input.difficulty);
    if (!chart || !isAvailable(chart)) throw notFound('Song not found');
    let bpi: number | null;
    try {
      bpi = chart.definition ? calcBpi(input.exScore, chart.definition) : input.exScore > chart.notes * 2 ? null : -15;
    } catch (err) {
      if (err instanceof ExScoreOverMaxError) throw badInput(err.message);
      throw err;
    }
    if (bpi === null && input.exScore > chart.notes * 2) throw badInput(`exScore exceeds maximum (${chart.notes * 2})`);
    const withArena = chart.level === 11 || chart.level === 12;
    if (!input.includeRank) {
      const arenaAverages = withArena ? this.s.arenaAverages.forChartLoaded(chart.id, version) : null;
      if (arenaAverages !== undefined) return answer(chart, bpi, version, null, arenaAverages);
    }
    return this.calcAsync(input, chart, bpi, version, withArena);
  }

  /** calc's path with a database read: the player rank (includeRank) or arena averages not loaded yet. */
  private async calcAsync(
    input: BpiCalcInput,
    chart: CatalogueChart,
    bpi: number | null,
    version: string,
    withArena: boolean,
  ): Promise<BpiCalcAnswer> {
    let rank: { bpimRank: number | null; bpimTotal: number } | null = null;
    if (input.includeRank) {
      const [row] = await this.s.db.$queryRawUnsafe<{ total: number; higher: number }[]>(
        `SELECT COUNT(*)::int AS total, (COUNT(*) FILTER (WHERE "exScore" > $3))::int AS higher
           FROM "BestScore" WHERE "chartId" = $1 AND version = $2`,
        chart.id,
        version,
        input.exScore,
      );
      // nobody has played the chart: no rank ("1 of 0" would say nothing true)
      rank = { bpimTotal: row.total, bpimRank: row.total > 0 ? row.higher + 1 : null };
    }
    const arenaAverages = withArena ? await this.s.arenaAverages.forChart(chart.id, version) : null;
    return answer(chart, bpi, version, rank, arenaAverages);
  }
}

export interface BpiCalcAnswer {
  song: { title: string; difficulty: Difficulty; difficultyLevel: number; notes: number };
  bpi: number | null;
  rank: { estimatedRank: number | null; bpimRank: number | null; bpimTotal: number | null };
  metadata: { version: string; arenaAverages: ArenaAverageView[] | null };
}

function answer(
  chart: CatalogueChart,
  bpi: number | null,
  version: string,
  rank: { bpimRank: number | null; bpimTotal: number } | null,
  arenaAverages: ArenaAverageView[] | null,
): BpiCalcAnswer {
  return {
    song: { title: chart.title, difficulty: chart.difficulty, difficultyLevel: chart.level, notes: chart.notes },
    bpi,
    rank: {
      estimatedRank: bpi === null ? null : estimateRankFromTotal(bpi),
      bpimRank: rank?.bpimRank ?? null,
      bpimTotal: rank?.bpimTotal ?? null,
    },
    metadata: { version, arenaAverages: arenaAverages && arenaAverages.length ? arenaAverages : null },
  };
}
