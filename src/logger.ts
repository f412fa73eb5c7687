import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The request a piece of work belongs to: set for each HTTP request by src/http.ts (Fastify's
 * request id), so every log line written while serving it carries `reqId` — also from services
 * that log through the process logger (app.log), not only from Fastify's `req.log`.
 */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/** pino's isoTime, computed once per millisecond (an access line per request: many lines share one). */
let lastMs = -1;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

const NO_FIELDS: Record<string, never> = Object.freeze({});
const { chindingsSym } = pino.symbols;

/**
 * Standard output written asynchronously (sonic-boom, sync: false): a log line never waits for
 * the terminal, pipe or file. Lines are gathered up to 4 KiB (one write for a dozen access lines
 * under load) and written at least every 100 ms; pino flushes what is left synchronously on exit
 * (process.exit included).
 */
export function asyncStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
}

/** The process logger (JSON lines on stdout, written asynchronously, or on `destination`). */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTime,
      // Fastify's request loggers already bind reqId: add it only where it is missing (a string
      // search of the logger's serialised bindings: no parse per line).
      mixin(obj, _level, logger) {
        const store = requestContext.getStore();
        if (store === undefined || (obj as { reqId?: unknown }).reqId !== undefined) return NO_FIELDS;
        const bound = (logger as unknown as Record<symbol, string | undefined>)[chindingsSym];
        return bound !== undefined && bound.includes(',"reqId":') ? NO_FIELDS : { reqId: store.reqId };
      },
      // pino's merge (Object.assign(mixin, obj)) without a new object when the mixin adds nothing.
      mixinMergeStrategy: (obj, mixed) => (mixed === NO_FIELDS ? obj : Object.assign(mixed, obj)),
    },
    destination ?? asyncStdout(),
  );
}

/**
 * Writes out what the logger holds, synchronously: before a signal handler of another library
 * may end the process without an `exit` event (the shutdown line of src/server.ts).
 */
export function flushLogs(log: Logger): void {
  const stream = (log as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  try {
    stream?.flushSync?.();
  } catch {
    /* not open yet, or already closed: nothing to write */
  }
}
