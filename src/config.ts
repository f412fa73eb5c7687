import path from 'node:path';
import { z } from 'zod';

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1' || v === 'yes'));

const truthy = (v: string) => v === 'true' || v === '1' || v === 'yes';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgresql:// URL (unset it to use the embedded PGlite)')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_REPLICA_URLS: z
    .string()
    .regex(
      /^\s*postgres(ql)?:\/\/[^,]+(,\s*postgres(ql)?:\/\/[^,]+)*\s*$/,
      'DATABASE_REPLICA_URLS must be a comma list of postgresql:// URLs',
    )
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Default: true in development and test, false in production (demo data never in production unless asked for). */
  SEED_DEMO: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Defaults (see loadConfig): on outside production; in production off unless GRAPHQL_EXPLORER=true. */
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
  GRAPHQL_EXPLORER: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
  GRAPHQL_COMPILED_EXECUTOR: bool(true),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(100).default(12),
  GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(10).default(5000),
  GRAPHQL_EXPENSIVE_COMPLEXITY: z.coerce.number().int().min(1).default(500),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(1).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5000),
  GRAPHQL_MAX_QUERY_LENGTH: z.coerce.number().int().min(1000).default(32768),
  GRAPHQL_MAX_STRING_LENGTH: z.coerce.number().int().min(16).default(256),
  GRAPHQL_LIST_COST: z.coerce.number().int().min(1).max(10000).default(10),
  GRAPHQL_MAX_PLANS: z.coerce.number().int().min(1).max(100).default(3),
  CPU_BUDGET_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(0).default(3000),
  CPU_BUDGET_USER_PER_MINUTE: z.coerce.number().int().min(0).default(15000),
  SUBSCRIPTIONS_PER_CONNECTION: z.coerce.number().int().min(1).default(10),
  SUBSCRIPTIONS_PER_USER: z.coerce.number().int().min(1).default(20),
  WS_MAX_PAYLOAD_BYTES: z.coerce.number().int().min(1024).default(65536),
  RATE_LIMIT_MAX_KEYS: z.coerce.number().int().min(100).default(100000),
  /** Worker threads of the CPU pool (src/workers/pool.ts); default: cores − 1, at least 1; 0 = inline. */
  WORKER_POOL_SIZE: z.coerce.number().int().min(0).max(64).optional(),
  WORKER_QUEUE_MAX: z.coerce.number().int().min(1).default(32),
  /**
   * The OS niceness of each worker thread (Linux: setpriority on the thread; 0–19, default 0 = as the
   * main thread): > 0 gives the event loop the CPU before the pool's work. Off by default: budgets
   * are wall-clock, and on a machine shared with other busy processes a low-priority task can run
   * out of its budget (docs/limits-and-pool.md).
   */
  WORKER_POOL_NICE: z.coerce.number().int().min(0).max(19).default(0),
  /** New titles (songs not in the public catalogue) one score import may bring; the rest are problems. */
  NEW_TITLES_PER_IMPORT: z.coerce.number().int().min(0).default(200),
  /** New titles one player may bring in 24 hours, all imports together. */
  NEW_TITLES_PER_DAY: z.coerce.number().int().min(0).default(500),
  WORKER_TASK_BUDGET_MS: z.coerce.number().int().min(10).default(2000),
  MIGRATION_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 * 1024),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(3600),
  AUTH_ISSUER: z.string().url().optional(),
  AUTH_JWKS_URL: z.string().url().optional(),
  AUTH_AUDIENCE: z.string().min(1).optional(),
  PUBLIC_URL: z.string().url().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional(),
  TITLE_CORRECTIONS_FILE: z.string().min(1).optional(),
  CORS_ORIGINS: z.string().optional(),
  CORS_ALLOW_CREDENTIALS: bool(false),
  USER_DELETION_BACKUP_DIR: z.string().min(1).optional(),
  INVITE_TOKEN_KEY: z.string().min(32, 'INVITE_TOKEN_KEY must be at least 32 characters').optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL')
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL')
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('bpigraph'),
});

/** A loopback origin (localhost, 127.0.0.0/8, [::1]; http or https, any port): a page served from this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i.test(origin);
}

interface CorsOrigins {
  /** Exact origins, or '*' for any. */
  origins: string[] | '*';
  /** Any loopback origin (isLoopbackOrigin) is allowed too. */
  loopback: boolean;
}

/**
 * CORS_ORIGINS: a comma list of exact origins (`scheme://host[:port]`) and/or the word `loopback`
 * (any page on this machine, any port), `*` for any origin, or `none`. Unset: `loopback` outside
 * production, none in production. Returns the normalised origins (as browsers send them) or an
 * error message naming the bad entry.
 */
function parseCorsOrigins(raw: string | undefined, env: string, credentials: boolean): CorsOrigins | { error: string } {
  if (raw === undefined) return { origins: [], loopback: env !== 'production' };
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0].toLowerCase() === 'none') return { origins: [], loopback: false };
  if (entries.includes('*')) {
    if (entries.length > 1)
      return { error: "CORS_ORIGINS: '*' (any origin) cannot be combined with a list of origins" };
    if (credentials)
      return { error: "CORS_ORIGINS: '*' is refused with CORS_ALLOW_CREDENTIALS=true (list the exact origins)" };
    return { origins: '*', loopback: false };
  }
  const origins: string[] = [];
  let loopback = false;
  for (const entry of entries) {
    if (entry.toLowerCase() === 'loopback') {
      loopback = true;
      continue;
    }
    const origin = /^https?:\/\/[^/?#@\s]+\/?$/i.test(entry) && URL.canParse(entry) ? new URL(entry).origin : undefined;
    if (!origin || origin === 'null') {
      return { error: `CORS_ORIGINS: '${entry}' is not an origin (http(s)://host[:port], no path) nor 'loopback'` };
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { origins, loopback };
}

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Reads and validates the environment once; a bad value stops start-up with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const corsOrigins = parseCorsOrigins(c.CORS_ORIGINS, c.NODE_ENV, c.CORS_ALLOW_CREDENTIALS);
  if ('error' in corsOrigins) throw new ConfigError(`Invalid configuration:\n  ${corsOrigins.error}`);
  if (c.DATABASE_REPLICA_URLS && !c.DATABASE_URL)
    throw new ConfigError('Invalid configuration:\n  DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)');
  if (c.NODE_ENV === 'production' && !c.PUBLIC_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL is required in production: the external base URL of this server (e.g. https://api.example.org), ' +
        'the issuer of its OAuth metadata (security metadata is never built from request headers)',
    );
  }
  const external = [c.AUTH_ISSUER, c.AUTH_JWKS_URL, c.AUTH_AUDIENCE].filter(Boolean).length;
  if (external !== 0 && external !== 3) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_ISSUER, AUTH_JWKS_URL and AUTH_AUDIENCE must be set together',
    );
  }
  const explorer = c.GRAPHQL_EXPLORER === undefined ? c.NODE_ENV !== 'production' : truthy(c.GRAPHQL_EXPLORER);
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    databasePoolMax: c.DATABASE_POOL_MAX,
    /** PostgreSQL streaming replicas for read-only requests (src/db/replicas.ts); [] = none. */
    databaseReplicaUrls: (c.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    dataDir: path.resolve(c.DATA_DIR),
    seedDemo: c.SEED_DEMO === undefined ? c.NODE_ENV !== 'production' : truthy(c.SEED_DEMO),
    logLevel: c.LOG_LEVEL,
    /** The GraphiQL page at GET /graphql: on outside production, off in production unless GRAPHQL_EXPLORER=true. */
    explorer,
    /** Schema introspection: follows the explorer (which needs it) unless GRAPHQL_INTROSPECTION says otherwise. */
    introspection: c.GRAPHQL_INTROSPECTION === undefined ? explorer : truthy(c.GRAPHQL_INTROSPECTION),
    /** POST /graphql queries and mutations through compiled documents (src/graphql/executor.ts); false = Apollo's pipeline only. */
    compiledExecutor: c.GRAPHQL_COMPILED_EXECUTOR,
    bodyLimit: c.BODY_LIMIT_BYTES,
    /** The GraphQL gate and rate limits (src/graphql/limits, docs/limits-and-pool.md). */
    limits: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      /** Cost per request (GRAPHQL_MAX_COMPLEXITY). */
      maxComplexity: c.GRAPHQL_MAX_COMPLEXITY,
      /** Reads at or above this cost count one expensive read (heavy fields always do). */
      expensiveComplexity: c.GRAPHQL_EXPENSIVE_COMPLEXITY,
      /** Requests per minute; 0 disables the limit. */
      writesPerMinute: c.RATE_LIMIT_WRITES_PER_MINUTE,
      expensiveReadsPerMinute: c.RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE,
      /** Fields with an alias per request (fragments expanded). */
      maxAliases: c.GRAPHQL_MAX_ALIASES,
      /** Default maximum length of a string argument (src/graphql/limits/strings.ts STRING_LIMITS names the longer ones). */
      maxStringLength: c.GRAPHQL_MAX_STRING_LENGTH,
      /** Cost multiplier of a list field without a page size (its children count this many times). */
      listCost: c.GRAPHQL_LIST_COST,
      /** bpiPlan / saveOptimizeMemo fields per request. */
      maxPlans: c.GRAPHQL_MAX_PLANS,
      /** CPU work units (≈ ms) a minute: per anonymous address (IPv6: its /64), per signed-in user; 0 = off. */
      cpuAnonymousPerMinute: c.CPU_BUDGET_ANONYMOUS_PER_MINUTE,
      cpuUserPerMinute: c.CPU_BUDGET_USER_PER_MINUTE,
    },
    /** Lexical tokens of a query document (graphql-js parse option). */
    graphqlMaxTokens: c.GRAPHQL_MAX_TOKENS,
    /** Characters of a query text. */
    graphqlMaxQueryLength: c.GRAPHQL_MAX_QUERY_LENGTH,
    subscriptionsPerConnection: c.SUBSCRIPTIONS_PER_CONNECTION,
    subscriptionsPerUser: c.SUBSCRIPTIONS_PER_USER,
    /** Largest WebSocket frame accepted (ws maxPayload): larger frames close the connection before parsing. */
    wsMaxPayload: c.WS_MAX_PAYLOAD_BYTES,
    /** Keys the in-memory rate limiter keeps (least recently used evicted beyond). */
    rateLimitMaxKeys: c.RATE_LIMIT_MAX_KEYS,
    /**
     * The CPU worker pool (src/workers/pool.ts, docs/limits-and-pool.md): threads (undefined = cores − 1,
     * at least 1; 0 = inline), tasks waiting at most (beyond: 503), a task's time budget (ms).
     */
    pool: {
      size: c.WORKER_POOL_SIZE,
      maxQueue: c.WORKER_QUEUE_MAX,
      budgetMs: c.WORKER_TASK_BUDGET_MS,
      nice: c.WORKER_POOL_NICE,
    },
    /**
     * Caps on the new titles (provisional songs) score imports learn: per import and per player in
     * 24 hours (docs/imports-provisional.md); rows past them are reported as problems.
     */
    newTitles: { perImport: c.NEW_TITLES_PER_IMPORT, perDay: c.NEW_TITLES_PER_DAY },
    /** Largest migrateLegacyScores document (characters). */
    migrationMaxBytes: c.MIGRATION_MAX_BYTES,
    jwtSecret: c.JWT_SECRET,
    accessTokenTtl: c.ACCESS_TOKEN_TTL_SECONDS,
    externalAuth: c.AUTH_ISSUER
      ? { issuer: c.AUTH_ISSUER, jwksUrl: c.AUTH_JWKS_URL!, audience: c.AUTH_AUDIENCE! }
      : undefined,
    /**
     * The external base URL (no trailing slash): the OAuth issuer and endpoint URLs. Required in
     * production; elsewhere unset means http://localhost:<listening port> (publicBaseUrl below),
     * never the request's Host header.
     */
    publicUrl: c.PUBLIC_URL?.replace(/\/+$/, ''),
    redisUrl: c.REDIS_URL,
    /** JSON {"export title": "catalogue title"} used when matching imported scores (none when unset). */
    titleCorrectionsFile: c.TITLE_CORRECTIONS_FILE ? path.resolve(c.TITLE_CORRECTIONS_FILE) : undefined,
    /**
     * Browser origins allowed to call this server (src/cors.ts): exact origins or '*' for any, plus
     * every loopback origin when `loopback`; none of them = no CORS. `setting` is CORS_ORIGINS as
     * given (for the log line naming the setting that would allow a refused origin).
     */
    cors: { ...corsOrigins, allowCredentials: c.CORS_ALLOW_CREDENTIALS, setting: c.CORS_ORIGINS },
    /** Where deleteAccount writes the account's JSON backup first (default DATA_DIR/deleted-accounts). */
    userDeletionBackupDir: path.resolve(c.USER_DELETION_BACKUP_DIR ?? path.join(c.DATA_DIR, 'deleted-accounts')),
    /** Key that seals invitation tokens so their owner can see the link again (default: derived from the access-token key). */
    inviteTokenKey: c.INVITE_TOKEN_KEY,
    /**
     * OpenTelemetry tracing (src/tracing.ts): off unless an OTLP endpoint is set. The traces URL is
     * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces
     * (the OTLP/HTTP convention).
     */
    tracing:
      c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || c.OTEL_EXPORTER_OTLP_ENDPOINT
        ? {
            tracesUrl:
              c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${c.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, '')}/v1/traces`,
            serviceName: c.OTEL_SERVICE_NAME,
          }
        : undefined,
  };
}

/** A Host header naming this machine's loopback interface, with an optional port (localhost, 127.0.0.0/8, [::1]). */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

/**
 * The external base URL: PUBLIC_URL when set (required in production). Without it (development,
 * tests): the request's own host when it is a loopback name — so an MCP client that discovers the
 * server from http://127.0.0.1:4000 is told http://127.0.0.1:4000 and its resource check passes —
 * else http://localhost:<the port actually listened on>. Any other Host header (evil.example,
 * X-Forwarded-*) is never used: a loopback host can only be reached from this machine.
 */
export function publicBaseUrl(
  config: Pick<Config, 'publicUrl' | 'env'>,
  listeningPort: number,
  requestHost?: string,
): string {
  if (config.publicUrl) return config.publicUrl;
  if (config.env !== 'production' && requestHost && LOOPBACK_HOST.test(requestHost))
    return `http://${requestHost.toLowerCase()}`;
  return `http://localhost:${listeningPort}`;
}
