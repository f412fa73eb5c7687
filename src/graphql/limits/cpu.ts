/**
 * CPU budgets per caller (docs/limits-and-pool.md): the work units of an operation's heavy fields
 * (./heavy.ts) count per minute against the signed-in user's budget (CPU_BUDGET_USER_PER_MINUTE),
 * or the anonymous address's (CPU_BUDGET_ANONYMOUS_PER_MINUTE; an IPv6 address counts for its
 * /64: src/ratelimit.ts clientKey). Shared by every process with REDIS_URL, else on PostgreSQL
 * (src/ratelimit-pg.ts; PGlite: one process, in memory). Past it: RATE_LIMITED
 * with retryAfter (HTTP 429 + Retry-After). Counted in /metrics (src/metrics.ts).
 */
import { AppError } from '../../errors';
import { cpuBudgetRefusals, cpuUnitsCounted } from '../../metrics';
import type { RateLimitPolicy } from '../../ratelimit';
import type { Platform as App } from '../context';
import type { LimitsConfig } from './config';

const policies = new WeakMap<LimitsConfig, { anonymous: RateLimitPolicy; user: RateLimitPolicy }>();

function policiesOf(limits: LimitsConfig) {
  let p = policies.get(limits);
  // A test may change the numbers at run time: rebuilt when they differ.
  if (!p || p.anonymous.max !== limits.cpuAnonymousPerMinute || p.user.max !== limits.cpuUserPerMinute) {
    p = {
      anonymous: { name: 'cpu-anonymous', max: limits.cpuAnonymousPerMinute, windowSeconds: 60 },
      user: { name: 'cpu-user', max: limits.cpuUserPerMinute, windowSeconds: 60 },
    };
    policies.set(limits, p);
  }
  return p;
}

const counted = { anonymous: cpuUnitsCounted.labels('anonymous'), user: cpuUnitsCounted.labels('user') };
const refused = { anonymous: cpuBudgetRefusals.labels('anonymous'), user: cpuBudgetRefusals.labels('user') };

/** Counts `units` against the caller's CPU budget (0 = the budget is off); RATE_LIMITED past it. */
export async function consumeCpu(
  app: App,
  limits: LimitsConfig,
  ip: string,
  viewerId: string | undefined,
  units: number,
): Promise<void> {
  const kind = viewerId ? 'user' : 'anonymous';
  const policy = policiesOf(limits)[kind];
  if (policy.max <= 0) return;
  counted[kind].inc(units);
  try {
    await (app.cpuLimiter ?? app.rateLimiter).consume(policy, viewerId ? `user:${viewerId}` : `ip:${ip}`, units);
  } catch (err) {
    if (err instanceof AppError && err.code === 'RATE_LIMITED') {
      refused[kind].inc();
      throw new AppError(
        'RATE_LIMITED',
        `CPU budget spent: ${policy.max} work units a minute (${kind === 'user' ? 'CPU_BUDGET_USER_PER_MINUTE' : 'CPU_BUDGET_ANONYMOUS_PER_MINUTE'}); this request needs ${units}`,
        {
          ...err.details,
          limit: kind === 'user' ? 'CPU_BUDGET_USER_PER_MINUTE' : 'CPU_BUDGET_ANONYMOUS_PER_MINUTE',
        },
      );
    }
    throw err;
  }
}
