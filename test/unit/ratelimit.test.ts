import { AppError } from '../../src/errors';
import { MemoryStore, RateLimiter, type RateLimitStore } from '../../src/ratelimit';

const policy = { name: 'unit', max: 3, windowSeconds: 60 };

async function outcome(p: Promise<void>): Promise<'ok' | number> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('RATE_LIMITED');
    return (err as AppError).details!.retryAfter as number;
  }
}

describe('fixed-window rate limiter (in memory)', () => {
  it('lets max hits pass per window, then RATE_LIMITED with the seconds left; a new window starts afresh', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(new MemoryStore(() => now));
    for (let i = 0; i < 3; i++) expect(await outcome(limiter.consume(policy, '1.2.3.4'))).toBe('ok');
    now += 15_500;
    expect(await outcome(limiter.consume(policy, '1.2.3.4'))).toBe(45); // 44.5 s left, rounded up
    expect(await outcome(limiter.consume(policy, '5.6.7.8'))).toBe('ok'); // other keys are independent
    expect(await outcome(limiter.consume({ ...policy, name: 'other' }, '1.2.3.4'))).toBe('ok'); // and other policies
    now += 44_500; // the window started at the first hit: it ends 60 s later
    expect(await outcome(limiter.consume(policy, '1.2.3.4'))).toBe('ok');
  });

  it('sweeps expired windows when the table is full instead of growing without bound', async () => {
    let now = 0;
    const store = new MemoryStore(() => now, 100);
    for (let i = 0; i < 100; i++) await store.hit(`k${i}`, 1000);
    expect(store.size).toBe(100);
    now = 5000;
    await store.hit('fresh', 1000);
    expect(store.size).toBe(1);
  });

  it('fails open (and logs) when the store is unavailable', async () => {
    const broken: RateLimitStore = { hit: () => Promise.reject(new Error('down')), close: async () => {} };
    const warnings: unknown[] = [];
    const limiter = new RateLimiter(broken, { warn: (o: unknown) => warnings.push(o) } as never);
    expect(await outcome(limiter.consume(policy, 'x'))).toBe('ok');
    expect(warnings).toHaveLength(1);
  });
});
