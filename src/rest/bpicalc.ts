import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { App } from '../app';
import { AppError } from '../errors';
import { GAME_VERSIONS, type GameVersion } from '../domain/constants';
import { RestBpiCalc, type BpiCalcData } from './documents/bpi-calc';
import { getRoute } from './route';

const Query = z.object({
  title: z.string({ error: 'title is required' }).min(1, 'title is required'),
  difficulty: z.enum(['HYPER', 'ANOTHER', 'LEGGENDARIA'], {
    error: 'difficulty must be one of HYPER, ANOTHER, LEGGENDARIA',
  }),
  exScore: z.coerce
    .number({ error: 'exScore must be an integer ≥ 0' })
    .int('exScore must be an integer ≥ 0')
    .min(0, 'exScore must be an integer ≥ 0'),
  version: z.enum(GAME_VERSIONS, { error: `version must be one of ${GAME_VERSIONS.join(', ')}` }).optional(),
  // lenient as the reference: anything but "true" leaves the rank out
  includeRank: z
    .preprocess((v) => v === 'true', z.boolean())
    .optional()
    .describe("Add this server's rank (bpimRank of bpimTotal players; bpimRank null when nobody has played the chart)"),
});

const ArenaAverage = z.object({
  avgExScore: z.number(),
  rate: z.number(),
  count: z.number().int(),
  avgBpi: z.number().optional(),
});
/** The 200 body (the OpenAPI document's schema of this route). */
const Response = z.object({
  song: z.object({
    title: z.string(),
    difficulty: z.string(),
    difficultyLevel: z.number().int(),
    notes: z.number().int(),
  }),
  bpi: z.number().nullable(),
  rank: z
    .object({
      estimatedRank: z.number().nullable(),
      bpimRank: z.number().int().nullable(),
      bpimTotal: z.number().int().nullable(),
    })
    .loose()
    .nullable(),
  metadata: z.object({ version: z.string(), arenaAverages: z.record(z.string(), ArenaAverage).nullable() }),
});

export interface Params {
  title: string;
  difficulty: z.output<typeof Query>['difficulty'];
  exScore: number;
  version: GameVersion | null;
  includeRank: boolean;
}

const DIFFICULTIES: ReadonlySet<unknown> = new Set(Query.shape.difficulty.options);
const VERSIONS: ReadonlySet<unknown> = new Set(GAME_VERSIONS);
/** Decimal digits without a leading zero, short enough to be a safe integer: what `z.coerce.number().int().min(0)` keeps as written. */
const PLAIN_INT = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The parameters of the usual request without zod (the calculator is the hottest REST route):
 * only a query `Query` accepts, giving what it gives; anything else — every error, every unusual
 * spelling (`exScore=007`, repeated keys) — is null and goes through `Query`, which words the 400.
 */
export function plainParams(query: unknown): Params | null {
  if (typeof query !== 'object' || query === null) return null;
  const { title, difficulty, exScore, version, includeRank } = query as Record<string, unknown>;
  if (typeof title !== 'string' || title === '' || !DIFFICULTIES.has(difficulty)) return null;
  if (typeof exScore !== 'string' || !PLAIN_INT.test(exScore)) return null;
  if (version !== undefined && !VERSIONS.has(version)) return null;
  return {
    title,
    difficulty: difficulty as Params['difficulty'],
    exScore: Number(exScore),
    version: (version as GameVersion | undefined) ?? null,
    includeRank: includeRank === 'true',
  };
}

/** The parameters through `Query`: BAD_USER_INPUT 'Invalid parameters' with every issue. */
export function queryParams(query: unknown): Params {
  const parsed = Query.safeParse(query);
  if (!parsed.success) {
    throw new AppError('BAD_USER_INPUT', 'Invalid parameters', {
      issues: parsed.error.issues.map((i) => ({
        code: i.code,
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      })),
    });
  }
  const q = parsed.data;
  return {
    title: q.title,
    difficulty: q.difficulty,
    exScore: q.exScore,
    version: q.version ?? null,
    includeRank: q.includeRank === true,
  };
}

/** Reference shape: arenaAverages keyed by class; avgBpi omitted where there is none. */
function arenaObject(list: BpiCalcData['bpiCalc']['metadata']['arenaAverages']) {
  if (!list) return null;
  const out: Record<string, { avgExScore: number; rate: number; count: number; avgBpi?: number }> = {};
  for (const e of list) {
    out[e.arenaClass] = {
      avgExScore: e.avgExScore,
      rate: e.rate,
      count: e.count,
      ...(e.avgBpi === null ? {} : { avgBpi: e.avgBpi }),
    };
  }
  return out;
}

/** The route's 200 body from the document's answer (also run by bench/calc-floor-server.ts). */
export function calcAnswer({ bpiCalc: r }: BpiCalcData): z.input<typeof Response> {
  return {
    song: r.song,
    bpi: r.bpi,
    rank: r.rank,
    metadata: { version: r.metadata.version, arenaAverages: arenaObject(r.metadata.arenaAverages) },
  };
}

/** GET /api/v1/bpi/calc — the single-song calculator: the GraphQL bpiCalc (document RestBpiCalc). */
export function registerBpiCalc(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/bpi/calc',
    document: RestBpiCalc,
    doc: {
      summary: 'BPI of one EX score on one chart (the GraphQL bpiCalc)',
      description:
        'rank only with includeRank=true; arenaAverages by arena class (avgBpi omitted where there is none).',
      query: Query,
      response: Response,
      errors: { 404: 'No such chart' },
    },
    parse: (req): Params => plainParams(req.query ?? {}) ?? queryParams(req.query ?? {}),
    variables: (q) => q,
    map: calcAnswer,
  });
}
