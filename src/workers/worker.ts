/**
 * The pool's worker thread (started by src/workers/pool.ts): runs one task at a time. Messages in:
 * `{ id, file, name, input, budgetMs }`; out: `{ id, ok: true, output }` or `{ id, ok: false, error }`
 * (an AppError keeps its code, message and details; anything else becomes an internal error).
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
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

/**
 * Lowers this thread's priority (Linux: setpriority on the thread id, /proc/thread-self names it),
 * so that on a busy machine the main thread's event loop gets the CPU first; elsewhere a no-op.
 */
function lowerPriority(nice: number): void {
  if (!nice || process.platform !== 'linux') return;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    /* not permitted or not available: the thread keeps the process's priority */
  }
}

const port = parentPort;
if (port) {
  lowerPriority(Number((workerData as { nice?: number } | null)?.nice ?? 0));
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
