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
