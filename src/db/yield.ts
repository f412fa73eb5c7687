/**
 * Lets the event loop run (timers, I/O: other requests, /healthz) between the steps of a long
 * piece of database work. Needed with the embedded PGlite, which executes each statement
 * synchronously on the main thread: a long transaction of big statements would otherwise hold the
 * whole process, not only the database, until it commits. Cheap with PostgreSQL (one macrotask).
 */
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
