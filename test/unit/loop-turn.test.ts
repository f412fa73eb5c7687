/**
 * src/db/yield.ts inLoopTurn / stepsInLoopTurns: CPU steps of requests that become ready together
 * (a dashboard's parts, once its loaders answer) run in later turns of the event loop, FIFO, at
 * most LOOP_TURN_MS of them a turn, so that a timer or I/O due meanwhile runs between them
 * (issue #27) — instead of one chain of microtasks as long as their sum.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inLoopTurn, LOOP_TURN_MS, stepsInLoopTurns } from '../../src/db/yield';

/** Holds the thread for `ms` (a CPU step). */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('inLoopTurn', () => {
  it('answers each step’s value or error, in the order the steps were asked', async () => {
    const order: string[] = [];
    const a = inLoopTurn(() => (order.push('a'), 1));
    const b = inLoopTurn(() => {
      order.push('b');
      throw new Error('step b failed');
    });
    const c = inLoopTurn(() => (order.push('c'), 'three'));
    await expect(a).resolves.toBe(1);
    await expect(b).rejects.toThrow('step b failed');
    await expect(c).resolves.toBe('three');
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('runs each step in the async context of the request that asked for it (its log lines carry its own request id)', async () => {
    const store = new AsyncLocalStorage<string>();
    // request A schedules the drain; B's step joins the same queue and runs in the same drain
    const [a, b] = await Promise.all([
      store.run('A', () => inLoopTurn(() => store.getStore())),
      store.run('B', () => inLoopTurn(() => store.getStore())),
    ]);
    expect([a, b]).toEqual(['A', 'B']);
  });

  it('lets a due timer run between steps that each take longer than a turn', async () => {
    // 4 steps of 2 × LOOP_TURN_MS (16 ms) asked at once: one step a turn. A 0 ms timer set by the
    // first step is due when that step ends and runs before the next turn's steps: it sees 1 step
    // done (in one chain of microtasks it would see all 4).
    const done: number[] = [];
    let seenByTimer = -1;
    const step = (i: number) => () => {
      if (i === 0) setTimeout(() => (seenByTimer = done.length), 0);
      spin(2 * LOOP_TURN_MS);
      return done.push(i);
    };
    await Promise.all([0, 1, 2, 3].map((i) => inLoopTurn(step(i))));
    expect(done).toEqual([0, 1, 2, 3]);
    expect(seenByTimer).toBe(1);
  });
});

describe('stepsInLoopTurns', () => {
  it('runs the steps until one answers done, letting a timer through on the way', async () => {
    // 10 steps of 5 ms, at most LOOP_TURN_MS (8 ms) of them a turn: a turn runs 2 steps (after the
    // first, 5 ms < 8 ms: one more; after the second, 10 ms ≥ 8 ms: the turn ends). A 0 ms timer
    // set by the first step runs after that turn: it sees 2 steps done (1 when the machine is so busy
    // that the first step's 5 ms of wall time end past 8 ms; in one block it would see all 10).
    let n = 0;
    let seenByTimer = -1;
    await stepsInLoopTurns(() => {
      if (n === 0) setTimeout(() => (seenByTimer = n), 0);
      spin(5);
      return ++n === 10;
    });
    expect(n).toBe(10);
    expect([1, 2]).toContain(seenByTimer);
  });
});
