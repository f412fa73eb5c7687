/**
 * The worker pool (src/workers/pool.ts): tasks run on worker threads (TypeScript loaded there
 * through @swc-node/register), AppErrors keep their code, a full queue is SERVICE_UNAVAILABLE with
 * a Retry-After, a task past its budget loses its worker; the plan task answers the same plan as
 * the domain function on this thread.
 */
import fs from 'node:fs';
import os from 'node:os';
import { threadId } from 'node:worker_threads';
import { AppError } from '../../src/errors';
import { optimizePlan, validateOptimizeInput, type OptimizerChart } from '../../src/domain/optimizer';
import { planTask } from '../../src/modules/optimizer/plan.task';
import { WorkerPool } from '../../src/workers/pool';
import { echoTask, foreverTask, refuseTask, spinTask, untilDeadlineTask } from '../fixtures/pool-tasks';
import { itIf } from '../helpers/skip';

let pool: WorkerPool;
afterEach(() => pool?.close());

describe('WorkerPool', () => {
  it('runs a task on a worker thread, plain data (a Set too) in and out', async () => {
    pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 5000 });
    const out = await pool.run(echoTask, { n: 7, set: new Set(['a']) });
    expect(out.n).toBe(7);
    expect([...out.set]).toEqual(['a']);
    expect(out.threadId).not.toBe(threadId);
    expect(pool.stats()).toMatchObject({ size: 1, busy: 0, queued: 0, completed: 1 });
  });

  // Linux's /proc, and a process at niceness 0 (one already above 7, e.g. under `nice npm test`, could
  // not go back down to 7 without privilege)
  itIf(process.platform === 'linux' && os.getPriority() === 0, 'needs Linux /proc and a process at niceness 0')(
    'workers run at the niceness asked, this thread unchanged',
    async () => {
      // /proc/<pid>/task/<tid>/stat: the 19th field is the niceness (counted after the ")" of the name)
      const niceOf = (tid: number | string) => {
        const stat = fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const before = new Set(fs.readdirSync(`/proc/${process.pid}/task`));
      const mine = niceOf(fs.readlinkSync('/proc/thread-self').split('/').pop()!);
      pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 5000, nice: 7 });
      await pool.run(echoTask, { n: 1, set: new Set<string>() });
      // the threads the worker brought: its own is set to 7 (an absolute niceness)
      const added = fs.readdirSync(`/proc/${process.pid}/task`).filter((t) => !before.has(t));
      expect(added.map(niceOf)).toContain(7);
      expect(niceOf(fs.readlinkSync('/proc/thread-self').split('/').pop()!)).toBe(mine);
    },
  );

  it('size 0 runs inline on this thread', async () => {
    pool = new WorkerPool({ size: 0, maxQueue: 4, budgetMs: 5000 });
    expect((await pool.run(echoTask, { n: 1, set: new Set<string>() })).threadId).toBe(threadId);
  });

  it('an AppError thrown in the worker keeps its code, message and issues', async () => {
    pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 5000 });
    const err = await pool.run(refuseTask, 'cake').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'no cake',
      details: { issues: [{ path: ['what'], message: 'refused' }] },
    });
  });

  it('two workers run two tasks at once; a full queue is SERVICE_UNAVAILABLE with retryAfter', async () => {
    pool = new WorkerPool({ size: 2, maxQueue: 1, budgetMs: 5000 });
    // 2 running + 1 queued fit; the 4th is refused at once.
    const running = [pool.run(spinTask, 300), pool.run(spinTask, 300), pool.run(spinTask, 10)];
    const err = await pool.run(spinTask, 10).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { limit: 'WORKER_QUEUE_MAX' } });
    expect((err as AppError).details!.retryAfter).toBeGreaterThanOrEqual(1);
    const threads = await Promise.all(running);
    expect(new Set(threads.slice(0, 2)).size).toBe(2);
    expect(pool.stats()).toMatchObject({ completed: 3, rejected: 1, queued: 0, busy: 0 });
  });

  it('a task sees its deadline; one that ignores it is stopped and its worker replaced', async () => {
    pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 50, graceMs: 100 });
    expect(await pool.run(untilDeadlineTask, null)).toBe(true);
    const err = await pool.run(foreverTask, undefined).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { limit: 'WORKER_TASK_BUDGET_MS', budgetMs: 50 },
    });
    expect(pool.stats().timedOut).toBe(1);
    // A new worker serves the next task.
    expect((await pool.run(echoTask, { n: 2, set: new Set<string>() })).n).toBe(2);
  });
});

describe('the plan task', () => {
  // The 4-chart fixture of test/unit/optimizer.test.ts (its arithmetic there): target 70 needs A +125, C +247 = 372 EX.
  const Y = { notes: 1000, kaidenAvg: 1500, wr: 1875, coef: 1 };
  const X = { notes: 1000, kaidenAvg: 1000, wr: 1750, coef: 1 };
  const chart = (id: number, def: typeof Y, exScore: number | null): OptimizerChart => ({
    id,
    title: `Chart ${id}`,
    difficulty: 'ANOTHER',
    level: 12,
    ...def,
    radarCategory: null,
    exScore,
  });
  const SET = [chart(1, Y, 1750), chart(2, Y, 1500), chart(3, X, 1500), chart(4, Y, null)];
  const v = validateOptimizeInput({ targetBpi: 70, considerCurrentTotalBpi: false });
  if (!v.ok) throw new Error('fixture');

  it('answers in a worker the plan computed on this thread', async () => {
    pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 5000 });
    const here = optimizePlan(SET, v.value, null);
    const there = await pool.run(planTask, { charts: SET, settings: v.value, radar: null });
    expect(there).toEqual(here);
    expect(there.totalExScoreGap).toBe(372);
    expect(there.provenOptimal).toBe(true);
  });

  it('a spent budget still answers a plan reaching the target, not proven optimal', () => {
    // 60 generated charts (every 5th unplayed), target 60 within 20 steps: the solver asks its
    // budget once it leaves the heuristic; answering "spent" at once keeps the heuristic plan.
    const charts: OptimizerChart[] = [];
    for (let i = 1; i <= 60; i++) {
      charts.push({
        id: i,
        title: `C${i}`,
        difficulty: 'ANOTHER',
        level: 12,
        notes: 1000 + ((i * 37) % 500),
        kaidenAvg: 1500 + ((i * 13) % 200),
        wr: 1900 + ((i * 7) % 100),
        coef: 1,
        radarCategory: null,
        exScore: i % 5 === 0 ? null : 1400 + ((i * 29) % 300),
      });
    }
    const s = validateOptimizeInput({ targetBpi: 60, maxSteps: 20, considerCurrentTotalBpi: false });
    if (!s.ok) throw new Error('fixture');
    const full = optimizePlan(charts, s.value, null);
    let asked = 0;
    const cut = optimizePlan(charts, s.value, null, { shouldStop: () => ++asked > 0 });
    expect(full.provenOptimal).toBe(true);
    expect(asked).toBeGreaterThan(0);
    expect(cut).toMatchObject({ achievable: true, provenOptimal: false });
    expect(cut.totalExScoreGap).toBeGreaterThanOrEqual(full.totalExScoreGap);
    expect(cut.steps.at(-1)!.cumulativeTotalBpi).toBeGreaterThanOrEqual(60);
  });
});
