/**
 * The CPU budgets are cluster-wide on PostgreSQL without Redis (src/ratelimit-pg.ts): two
 * limiters with their own connection pools (two processes, as far as the database can tell) hit
 * one caller's budget at once, and no hit is lost or counted twice.
 */
import { openDatabase, type DatabaseHandle } from '../../../src/db/client';
import { RateLimiter, type RateLimitPolicy } from '../../../src/ratelimit';
import { PostgresStore } from '../../../src/ratelimit-pg';
import { usingPostgres } from '../../helpers/db';
import { describeIf } from '../../helpers/skip';
import { startTestServer, type TestServer } from '../../helpers/server';

describeIf(
  usingPostgres,
  'PostgreSQL only: PGlite is one process by construction (run with DATABASE_URL=postgresql://…)',
)('CPU budgets on PostgreSQL without Redis', () => {
  let base: TestServer;
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  beforeAll(async () => {
    base = await startTestServer();
    [a, b] = await Promise.all([
      openDatabase({ url: base.db.url!, poolMax: 5 }),
      openDatabase({ url: base.db.url!, poolMax: 5 }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await base?.close();
  });

  it('the app counts its CPU budgets in PostgreSQL when REDIS_URL is not set', () => {
    expect(base.app.cpuLimiter?.store).toBeInstanceOf(PostgresStore);
  });

  it('100 hits of 3 units from two pools at once against 200 units: exactly 66 pass', async () => {
    const policy: RateLimitPolicy = { name: 'cpu-test', max: 200, windowSeconds: 60 };
    const limiters = [new RateLimiter(new PostgresStore(a.prisma)), new RateLimiter(new PostgresStore(b.prisma))];
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => limiters[i % 2].consume(policy, 'ip:2001:db8:1:2::7', 3)),
    );
    // Each hit adds 3 atomically: the counts seen are 3, 6, …, 300; those ≤ 200 pass: 200 / 3 → 66.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(66);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(34);
    expect(refused[0].reason).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfter: expect.any(Number) } });
    // the /64 is the key: another address of the same prefix is already over the budget
    await expect(limiters[0].consume(policy, 'ip:2001:db8:1:2::99', 1)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    const [row] = await a.prisma.$queryRawUnsafe<{ count: number }[]>(
      `SELECT "count" FROM "RateLimitWindow" WHERE "key" = 'cpu-test:ip:2001:db8:1:2::/64'`,
    );
    expect(row.count).toBe(301); // 100 × 3 + 1
  });

  it('a window past its end starts again at the next hit', async () => {
    const policy: RateLimitPolicy = { name: 'cpu-short', max: 5, windowSeconds: 1 };
    const limiter = new RateLimiter(new PostgresStore(a.prisma));
    await limiter.consume(policy, 'user:w', 5);
    await expect(limiter.consume(policy, 'user:w', 1)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await new Promise((r) => setTimeout(r, 1100));
    await expect(limiter.consume(policy, 'user:w', 5)).resolves.toBeUndefined();
  });
});
