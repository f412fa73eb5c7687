/**
 * Lets the event loop run (timers, I/O: other requests, /healthz) between the steps of a long
 * piece of database work. Needed with the embedded PGlite, which executes each statement
 * synchronously on the main thread: a long transaction of big statements would otherwise hold the
 * whole process, not only the database, until it commits. Cheap with PostgreSQL (one macrotask).
 */
import { AsyncResource } from 'node:async_hooks';

export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A loop's clock for slicing work of uneven steps: `await clock.pause()` in the loop lets the
 * event loop through once `sliceMs` have passed since the last time (nothing otherwise).
 */
export function sliceClock(sliceMs = 10): { pause(): Promise<void> } {
  let last = performance.now();
  return {
    async pause() {
      if (performance.now() - last < sliceMs) return;
      await yieldToEventLoop();
      last = performance.now();
    },
  };
}

/**
 * Sizes the chunks of a long piece of database work by how long the last one took, so that one
 * statement stays near `targetMs` whatever the machine's load: PGlite runs each statement on the
 * main thread, and a statement of 1,000 rows with triggers held the process 0.1–1 s on a busy
 * machine (issue #27). Chunks only split statements: the caller keeps them in one transaction
 * (all or nothing) and in the same order. On PostgreSQL chunks soon reach `max`.
 */
export class ChunkSizer {
  private current: number;
  /** Milliseconds per row, smoothed over the chunks so far (one slow chunk — a GC, the machine busy — weighs half). */
  private perRow = 0;
  constructor(private readonly opts: { first?: number; min?: number; max?: number; targetMs?: number } = {}) {
    this.current = opts.first ?? 100;
  }

  get size(): number {
    return this.current;
  }

  /** The last chunk of `rows` rows took `ms`: the next one aims at targetMs (at most doubling). */
  took(rows: number, ms: number): void {
    const { min = 10, max = 2000, targetMs = 30 } = this.opts;
    if (rows < this.current) return; // a short last chunk says little
    const sample = Math.max(ms, 0.5) / rows;
    this.perRow = this.perRow ? (this.perRow + sample) / 2 : sample;
    const next = Math.round(targetMs / this.perRow);
    this.current = Math.max(min, Math.min(max, 2 * this.current, next));
  }
}

/**
 * Runs `run` over `rows` in consecutive chunks (in order; the event loop let through between
 * them), sized by a ChunkSizer; returns the chunks' results in order.
 */
export async function inChunks<T, R>(
  rows: readonly T[],
  run: (chunk: T[]) => Promise<R>,
  sizer = new ChunkSizer(),
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length;) {
    if (i > 0) await yieldToEventLoop();
    const chunk = rows.slice(i, i + sizer.size);
    const t = performance.now();
    out.push(await run(chunk));
    sizer.took(chunk.length, performance.now() - t);
    i += chunk.length;
  }
  return out;
}

/** How long CPU steps of requests (inLoopTurn) may run in one turn of the event loop before I/O is polled. */
export const LOOP_TURN_MS = 8;

interface TurnJob {
  /** the caller's async context, entered to run the step */
  scope: AsyncResource;
  run(): unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const turnQueue: TurnJob[] = [];
let turnScheduled = false;

function drainTurn(): void {
  const start = performance.now();
  // at least one step a turn; more while the turn is short (a step itself is not cut)
  do {
    const job = turnQueue.shift()!;
    try {
      job.resolve(job.scope.runInAsyncScope(job.run));
    } catch (err) {
      job.reject(err);
    }
  } while (turnQueue.length && performance.now() - start < LOOP_TURN_MS);
  // an immediate queued while immediates run waits for the next turn: I/O (/healthz) is polled first
  if (turnQueue.length) setImmediate(drainTurn);
  else turnScheduled = false;
}

/**
 * Runs a synchronous CPU step of a request (a dashboard part, a review…) in a later turn of the
 * event loop, in FIFO order with every other request's steps, at most LOOP_TURN_MS of them per turn.
 * Parts that resolve together (one request's loaders answering at once) would otherwise run back to
 * back in one chain of microtasks, holding the loop for their sum (issue #27); this way each waits
 * for its turn and I/O is polled between turns. Same result as `run()`, or its error.
 */
export function inLoopTurn<T>(run: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // run in the caller's async context: the queue is drained from whichever request scheduled it
    // first, and a step's log lines (the request id of AsyncLocalStorage) must be its own request's.
    // (An AsyncResource entered with runInAsyncScope, as AsyncResource.bind does without the bound
    // function and its property definitions: ~20 µs a step against ~0.2 µs, two dozen steps a dashboard.)
    turnQueue.push({ scope: new AsyncResource('inLoopTurn'), run, resolve, reject });
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(drainTurn);
    }
  });
}

/**
 * Runs `step` until it answers true (done), in turns of the event loop (inLoopTurn): as many steps
 * a turn as fit in LOOP_TURN_MS (a step itself is not cut). For a long loop of small steps.
 */
export async function stepsInLoopTurns(step: () => boolean): Promise<void> {
  for (let done = false; !done;) {
    done = await inLoopTurn(() => {
      const start = performance.now();
      let d: boolean;
      do d = step();
      while (!d && performance.now() - start < LOOP_TURN_MS);
      return d;
    });
  }
}
