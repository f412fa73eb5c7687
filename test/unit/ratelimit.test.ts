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

  it('keeps at most maxKeys windows, evicting the least recently hit: a flood of new keys never resets a live counter', async () => {
    const now = 0;
    const limiter = new RateLimiter(new MemoryStore(() => now, 100));
    // the limited client: 3 hits (the maximum) in its window
    for (let i = 0; i < 3; i++) expect(await outcome(limiter.consume(policy, '9.9.9.9'))).toBe('ok');
    // 99 other keys fill the table (100 keys in all), then the limited client comes back: still limited
    for (let i = 0; i < 99; i++) await limiter.consume(policy, `k${i}`);
    expect(await outcome(limiter.consume(policy, '9.9.9.9'))).toBe(60);
    // 99 more fresh keys: each evicts the least recently hit (k0, k1, …), never 9.9.9.9 (hit just now)
    for (let i = 99; i < 198; i++) await limiter.consume(policy, `k${i}`);
    expect((limiter.store as MemoryStore).size).toBe(100);
    expect(await outcome(limiter.consume(policy, '9.9.9.9'))).toBe(60);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', async () => {
    const limiter = new RateLimiter(new MemoryStore(() => 0));
    // three different addresses of one /64: the fourth hit is over the limit of 3
    expect(await outcome(limiter.consume(policy, 'ip:2001:db8:1:2::1'))).toBe('ok');
    expect(await outcome(limiter.consume(policy, 'ip:2001:0db8:0001:0002:ffff:0:0:2'))).toBe('ok');
    expect(await outcome(limiter.consume(policy, 'ip:2001:db8:1:2:aaaa::3'))).toBe('ok');
    expect(await outcome(limiter.consume(policy, 'ip:2001:db8:1:2::4'))).toBe(60);
    // another /64 is another client
    expect(await outcome(limiter.consume(policy, 'ip:2001:db8:1:3::1'))).toBe('ok');
    // ::ffff:1.2.3.4 is 1.2.3.4
    for (let i = 0; i < 3; i++) await limiter.consume(policy, 'ip:1.2.3.4');
    expect(await outcome(limiter.consume(policy, 'ip:::ffff:1.2.3.4'))).toBe(60);
  });

  it('counts weighted hits (one per aliased mutation)', async () => {
    const limiter = new RateLimiter(new MemoryStore(() => 0));
    expect(await outcome(limiter.consume(policy, 'w', 3))).toBe('ok');
    expect(await outcome(limiter.consume(policy, 'w'))).toBe(60);
  });

  it('fails open (and logs) when the store is unavailable', async () => {
    const broken: RateLimitStore = { hit: () => Promise.reject(new Error('down')), close: async () => {} };
    const warnings: unknown[] = [];
    const limiter = new RateLimiter(broken, { warn: (o: unknown) => warnings.push(o) } as never);
    expect(await outcome(limiter.consume(policy, 'x'))).toBe('ok');
    expect(warnings).toHaveLength(1);
  });
});
