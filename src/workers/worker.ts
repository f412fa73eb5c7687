/**
 * The pool's worker thread (started by src/workers/pool.ts): runs one task at a time. Messages in:
 * `{ id, file, name, input, budgetMs }`; out: `{ id, ok: true, output }` or `{ id, ok: false, error }`
 * (an AppError keeps its code, message and details; anything else becomes an internal error).
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors';
import { contextFor, lookupTask } from './task';

export interface TaskMessage {
  id: number;
  file: string;
  name: string;
  input: unknown;
  budgetMs: number;
}

export type ResultMessage =
  | { id: number; started: true }
  | { id: number; ok: true; output: unknown }
  | {
      id: number;
      ok: false;
      error: { app: boolean; code: string; message: string; details?: Record<string, unknown> };
    };

const port = parentPort;
if (port) {
  port.on('message', async (m: TaskMessage) => {
    let reply: ResultMessage;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the task's module defines it
      require(m.file);
      const task = lookupTask(m.file, m.name);
      if (!task) throw new Error(`No task ${m.name} in ${m.file}`);
      // The budget starts now, the task's module loaded (a fresh worker compiles it first).
      port.postMessage({ id: m.id, started: true } satisfies ResultMessage);
      reply = { id: m.id, ok: true, output: await task.run(m.input, contextFor(m.budgetMs)) };
    } catch (err) {
      const e = err as Error;
      reply =
        err instanceof AppError
          ? { id: m.id, ok: false, error: { app: true, code: err.code, message: err.message, details: err.details } }
          : {
              id: m.id,
              ok: false,
              error: {
                app: false,
                code: 'INTERNAL_SERVER_ERROR',
                message: `${e?.message ?? String(err)}\n${e?.stack ?? ''}`,
              },
            };
    }
    port.postMessage(reply);
  });
}
