/**
 * The worker pool: CPU-bound work (plans, parsing, rendering…) runs on worker threads so that no
 * request holds the event loop (docs/limits-and-pool.md). Hand-written over `worker_threads`
 * (piscina would need the same .ts shim and brings nothing else we use): a fixed number of
 * long-lived workers, a bounded FIFO queue, a time budget per task.
 *
 * - `run(task, input)` copies `input` to a worker (structured clone) and resolves with the task's
 *   output; an AppError thrown by the task keeps its code.
 * - Queue full → AppError SERVICE_UNAVAILABLE (REST 503 + Retry-After, GraphQL
 *   `extensions.code` SERVICE_UNAVAILABLE with `retryAfter`), never an unbounded queue.
 * - Budget: the task sees its deadline (TaskContext) and should answer what it has by then; one
 *   that is still running `graceMs` after it is stopped (its worker is terminated and replaced) and
 *   the caller gets SERVICE_UNAVAILABLE naming WORKER_TASK_BUDGET_MS.
 * - size 0: tasks run inline on the calling thread (same contract, no isolation): for tools.
 *
 * Workers load TypeScript sources through @swc-node/register when this file is .ts (jest, `npm
 * start`), the compiled .js otherwise.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../errors';
import { contextFor, type Task } from './task';
import type { ResultMessage, TaskMessage } from './worker';

export interface PoolOptions {
  /** Worker threads (0 = inline). */
  size: number;
  /** Tasks waiting for a worker at most (beyond: SERVICE_UNAVAILABLE). */
  maxQueue: number;
  /** Default time budget of a task (ms). */
  budgetMs: number;
  /** How long past its budget a task may run before its worker is terminated (ms). */
  graceMs?: number;
  /** OS niceness of the worker threads (0 = as the main thread): the event loop goes first on a busy machine. */
  nice?: number;
}

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
  maxQueue: number;
  completed: number;
  rejected: number;
  timedOut: number;
}

/** Worker threads for this machine: one core left to the event loop, at least one. */
export function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

interface Job {
  id: number;
  task: Task<unknown, unknown>;
  input: unknown;
  budgetMs: number;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  started: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** The error of a full queue: retry after `retryAfter` seconds. */
export function poolBusy(retryAfter: number, maxQueue: number): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The server is busy: ${maxQueue} CPU tasks are already waiting (WORKER_QUEUE_MAX); retry after ${retryAfter} s`,
    {
      retryAfter,
      limit: 'WORKER_QUEUE_MAX',
    },
  );
}

function workerSource(): string {
  const ext = path.extname(__filename);
  const entry = path.join(__dirname, `worker${ext}`);
  const hooked = process.execArgv.some((a) => a.includes('@swc-node/register'));
  const hook = ext === '.ts' && !hooked ? `require(${JSON.stringify(require.resolve('@swc-node/register'))});` : '';
  return `${hook}require(${JSON.stringify(entry)});`;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private avgMs = 100;
  private counts = { completed: 0, rejected: 0, timedOut: 0 };
  private readonly graceMs: number;

  constructor(private readonly opts: PoolOptions) {
    this.graceMs = opts.graceMs ?? 1000;
  }

  stats(): PoolStats {
    return {
      size: this.opts.size,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      maxQueue: this.opts.maxQueue,
      ...this.counts,
    };
  }

  /** Runs `task` on `input` in a worker; the output is a structured-clone copy. */
  run<I, O>(task: Task<I, O>, input: I, opts: { budgetMs?: number } = {}): Promise<O> {
    const budgetMs = opts.budgetMs ?? this.opts.budgetMs;
    if (this.closed)
      return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down', { retryAfter: 1 }));
    if (this.opts.size === 0) {
      try {
        return Promise.resolve(task.run(input, contextFor(budgetMs)));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const idle = this.slots.some((s) => !s.job) || this.slots.length < this.opts.size;
    if (!idle && this.queue.length >= this.opts.maxQueue) {
      this.counts.rejected++;
      const wait = (this.avgMs * (this.queue.length + 1)) / this.opts.size;
      return Promise.reject(poolBusy(Math.max(1, Math.ceil(wait / 1000)), this.opts.maxQueue));
    }
    return new Promise<O>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        task: task as Task<unknown, unknown>,
        input,
        budgetMs,
        resolve: resolve,
        reject,
        started: 0,
      };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Terminates the workers; queued tasks fail with SERVICE_UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down', { retryAfter: 1 }));
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(workerSource(), { eval: true, workerData: { nice: this.opts.nice ?? 0 } });
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (m: ResultMessage) => this.finish(slot, m));
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', (code) => this.fail(slot, new Error(`worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.opts.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    job.started = performance.now();
    const msg: TaskMessage = {
      id: job.id,
      file: job.task.file,
      name: job.task.name,
      input: job.input,
      budgetMs: job.budgetMs,
    };
    try {
      slot.worker.postMessage(msg);
    } catch (err) {
      this.settle(slot, job);
      job.reject(
        new AppError('BAD_USER_INPUT', `The task's input cannot be sent to a worker: ${(err as Error).message}`),
      );
      this.pump();
    }
  }

  private settle(slot: Slot, job: Job): void {
    clearTimeout(job.timer);
    slot.job = null;
    const ms = performance.now() - job.started;
    this.avgMs = this.avgMs * 0.8 + ms * 0.2;
  }

  private finish(slot: Slot, m: ResultMessage): void {
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if ('started' in m) {
      // The budget counts from the task's start in the worker (not a fresh worker's boot).
      job.started = performance.now();
      job.timer = setTimeout(() => this.overrun(slot, job), job.budgetMs + this.graceMs);
      job.timer.unref();
      return;
    }
    this.settle(slot, job);
    this.counts.completed++;
    if (m.ok) job.resolve(m.output);
    else if (m.error.app) job.reject(new AppError(m.error.code as ErrorCode, m.error.message, m.error.details));
    else job.reject(new Error(`Task ${job.task.name} failed in a worker: ${m.error.message}`));
    this.pump();
  }

  /** A task past budget + grace: its worker is terminated (a new one starts on demand). */
  private overrun(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    this.counts.timedOut++;
    this.remove(slot);
    this.settle(slot, job);
    job.reject(
      new AppError(
        'SERVICE_UNAVAILABLE',
        `Task ${job.task.name} ran past its time budget of ${job.budgetMs} ms (WORKER_TASK_BUDGET_MS): ask for less`,
        {
          limit: 'WORKER_TASK_BUDGET_MS',
          budgetMs: job.budgetMs,
        },
      ),
    );
    void slot.worker.terminate();
    this.pump();
  }

  private fail(slot: Slot, err: Error): void {
    const wasHere = this.remove(slot);
    const job = slot.job;
    if (job) {
      this.settle(slot, job);
      job.reject(new Error(`Task ${job.task.name} failed in a worker: ${err.message}`));
    }
    if (wasHere && !this.closed) this.pump();
  }

  private remove(slot: Slot): boolean {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    return i >= 0;
  }
}
