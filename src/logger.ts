import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The request a piece of work belongs to: set for each HTTP request by src/http.ts (Fastify's
 * request id), so every log line written while serving it carries `reqId` — also from services
 * that log through the process logger (app.log), not only from Fastify's `req.log`.
 */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/** The process logger (JSON lines on stdout, or on `destination`). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    // Fastify's request loggers already bind reqId: add it only where it is missing.
    mixin(_obj, _level, logger) {
      const store = requestContext.getStore();
      if (!store || (logger).bindings().reqId !== undefined) return {};
      return { reqId: store.reqId };
    },
  }, destination as pino.DestinationStream);
}
