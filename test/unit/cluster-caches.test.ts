/**
 * The cache registry over a bus (src/cluster/caches.ts), with two registries on one in-process
 * bus standing for two processes: a change invalidates the writer's cache before it returns,
 * the other "process" on delivery, followers after the cache they follow, and the writer never
 * twice (its own echo is skipped). A resync invalidates everything.
 */
import { LocalBus, type ClusterBus } from '../../src/cluster/bus';
import { ClusterCaches } from '../../src/cluster/caches';
import { LocalLock } from '../../src/cluster/lock';
import { parseLsn } from '../../src/db/replicas';

/** Two registries sharing one bus's deliveries but each with its own instance id. */
function twoProcesses() {
  const bus = new LocalBus();
  const other: ClusterBus = Object.assign(Object.create(bus) as ClusterBus, { instanceId: 'process-b' });
  const log: string[] = [];
  const make = (who: string, b: ClusterBus) => {
    const c = new ClusterCaches(b);
    c.register({ name: 'catalogue', invalidate: () => void log.push(`${who}:catalogue`) });
    c.register({ name: 'arena.averages', invalidate: (d) => void log.push(`${who}:arena(${d?.version ?? 'all'})`) });
    c.register({ name: 'popularity', invalidate: () => void log.push(`${who}:popularity`), follows: ['catalogue'] });
    return c;
  };
  return { bus, a: make('A', bus), b: make('B', other), log };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('ClusterCaches', () => {
  it('invalidates the writer before returning, then the other process; followers after; no echo', async () => {
    const { a, b, log } = twoProcesses();
    await a.changed('catalogue');
    expect(log).toEqual(['A:catalogue', 'A:popularity']); // the writer's own, at once
    await settle();
    expect(log).toEqual(['A:catalogue', 'A:popularity', 'B:catalogue', 'B:popularity']);
    expect([a.received, b.received]).toEqual([0, 1]);
  });

  it('passes the detail along and leaves unrelated caches alone', async () => {
    const { b, log } = twoProcesses();
    await b.changed('arena.averages', { version: '33' });
    await settle();
    expect(log).toEqual(['B:arena(33)', 'A:arena(33)']);
  });

  it('refuses an unknown name and a duplicate registration', async () => {
    const { a } = twoProcesses();
    await expect(a.changed('nope')).rejects.toThrow('No cache named nope');
    expect(() => a.register({ name: 'catalogue', invalidate: () => {} })).toThrow('Two caches are named catalogue');
  });
});

describe('LocalLock (PGlite: one process)', () => {
  it('is held by one holder at a time; a waiter gets it on release', async () => {
    const lock = new LocalLock();
    const release = await lock.tryAcquire();
    expect(release).not.toBeNull();
    expect(await lock.tryAcquire()).toBeNull();
    expect(await lock.isHeld()).toBe(true);
    let got = false;
    const waiting = lock.acquire().then((r) => ((got = true), r));
    await settle();
    expect(got).toBe(false);
    await release!();
    const second = await waiting;
    expect(got).toBe(true);
    await second();
    expect(await lock.isHeld()).toBe(false);
  });
});

describe('parseLsn', () => {
  it('orders WAL positions across the 32-bit boundary', () => {
    // "1/0" is 2^32; "0/FFFFFFFF" is 2^32 - 1
    expect(parseLsn('1/0')).toBe(4294967296n);
    expect(parseLsn('0/FFFFFFFF')).toBe(4294967295n);
    expect(parseLsn('16/B374D848') > parseLsn('16/B374D847')).toBe(true);
  });
});
