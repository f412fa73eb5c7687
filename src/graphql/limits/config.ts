/**
 * The limits' settings: one group of the configuration (`config.limits`, src/config.ts), read as
 * it is by every part of the gate (docs/limits-and-pool.md).
 */
import type { Config } from '../../config';

/** GRAPHQL_* and RATE_LIMIT_* / CPU_BUDGET_* settings (src/config.ts `limits`). */
export type LimitsConfig = Config['limits'];
