/**
 * Time limits for tests and hooks. jest-light-runner (jest.config.js) runs test functions as they
 * are, without jest's timeouts; here every `it`/`test` and every hook fails after its own limit
 * (the number a test passes as its third argument, else TEST_TIMEOUT_MS, else 180 s) so a
 * test that hangs fails with its name instead of holding the run until CI's own limit.
 */
const DEFAULT_MS = Number(process.env.TEST_TIMEOUT_MS) || 180_000;

type Fn = (...args: unknown[]) => unknown;

function limited(fn: Fn | undefined, ms: number | undefined, what: string): Fn | undefined {
  // (a function that takes `done` is left as it is)
  if (typeof fn !== 'function' || fn.length > 0) return fn;
  const limit = ms ?? DEFAULT_MS;
  return function (this: unknown) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${limit} ms`)), limit);
      timer.unref();
    });
    return Promise.race([Promise.resolve().then(() => fn.call(this)), timeout]).finally(() => clearTimeout(timer));
  };
}

const g = globalThis as unknown as Record<string, Fn & Record<string, unknown>>;

for (const name of ['it', 'test'] as const) {
  const original = g[name];
  const wrapped = Object.assign(
    (title: string, fn?: Fn, ms?: number) => original(title, limited(fn, ms, `test "${title}"`)),
    original,
  );
  g[name] = wrapped;
}
for (const name of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const) {
  const original = g[name];
  g[name] = Object.assign((fn: Fn, ms?: number) => original(limited(fn, ms, name)), original);
}
