/**
 * Lets the event loop run (timers, I/O: other requests, /healthz) between the steps of a long
 * piece of database work. Needed with the embedded PGlite, which executes each statement
 * synchronously on the main thread: a long transaction of big statements would otherwise hold the
 * whole process, not only the database, until it commits. Cheap with PostgreSQL (one macrotask).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
