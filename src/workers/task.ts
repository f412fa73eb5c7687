/**
 * A task of the worker pool (src/workers/pool.ts): a pure function of plain data (structured-clone
 * copyable in and out) with a time budget. A task is defined once, in its own file, with the file's
 * path: the pool's worker `require`s that file and finds the task by name, so the pool names no
 * area and an area's task stays in its area (`src/modules/<area>/<x>.task.ts`).
 */

/** What a running task knows of its budget. */
export interface TaskContext {
  /** Epoch milliseconds (Date.now()) past which the task should stop and answer what it has. */
  readonly deadline: number;
  /** Date.now() > deadline. */
  expired(): boolean;
}

export interface Task<I, O> {
  /** The defining module (absolute path, .ts under the swc hook, .js when compiled). */
  readonly file: string;
  readonly name: string;
  /** Synchronous, or a promise the worker awaits (e.g. a native library's async API). */
  readonly run: (input: I, ctx: TaskContext) => O | Promise<O>;
}

const registry = new Map<string, Task<unknown, unknown>>();

const keyOf = (file: string, name: string) => `${file}#${name}`;

/** Defines a task: `export const planTask = defineTask(__filename, 'plan', (input: In, ctx) => out)`. */
export function defineTask<I, O>(
  file: string,
  name: string,
  run: (input: I, ctx: TaskContext) => O | Promise<O>,
): Task<I, O> {
  const task: Task<I, O> = { file, name, run };
  registry.set(keyOf(file, name), task as Task<unknown, unknown>);
  return task;
}

/** The task a worker was asked to run (its module is loaded first, which defines it). */
export function lookupTask(file: string, name: string): Task<unknown, unknown> | undefined {
  return registry.get(keyOf(file, name));
}

/** A context whose deadline is `budgetMs` from now. */
export function contextFor(budgetMs: number): TaskContext {
  const deadline = Date.now() + budgetMs;
  return { deadline, expired: () => Date.now() > deadline };
}
