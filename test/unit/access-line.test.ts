import { Writable } from 'node:stream';
import pino from 'pino';
import { createLogger, fastifyLogger, requestContext, requestLoggerFactory, writeAccessLine } from '../../src/logger';

/** A logger of createLogger writing into an array (one entry per line). */
function capture(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  return { lines, log: createLogger(level, stream) };
}

const flush = () => new Promise((r) => setImmediate(r));
/** The line without its time (the two writes may fall in different milliseconds). */
const noTime = (line: string) => line.replace(/,"time":"[^"]*"/, ',"time":"T"');

describe('writeAccessLine (the access line without pino’s generic path)', () => {
  const cases: { route: string; operation?: string; status: number; ms: number }[] = [
    { route: '/api/v1/bpi/calc', status: 200, ms: 0.8 },
    { route: '/graphql', operation: 'bpiCalc', status: 429, ms: 12 },
    { route: 'unmatched', status: 404, ms: 1234.5 },
    // characters JSON must escape, and a number JSON has no spelling for (pino writes null)
    { route: '/a"b\\c\u0001', operation: 'x', status: 500, ms: Number.NaN },
  ];

  it.each(cases)('writes what log.info writes, byte for byte: %o', async ({ route, operation, status, ms }) => {
    const { lines, log } = capture();
    const req = log.child({ reqId: 'req-1' });
    const fields = `,"route":${JSON.stringify(route)}` + (operation ? `,"operation":${JSON.stringify(operation)}` : '');
    expect(writeAccessLine(req, 'GET', fields, status, ms, 'request completed')).toBe(true);
    req.info({ method: 'GET', route, operation, status, ms }, 'request completed');
    await flush();
    expect(lines).toHaveLength(2);
    expect(noTime(lines[0])).toBe(noTime(lines[1]));
    const parsed = JSON.parse(lines[0]) as { time: string; reqId: string; level: number };
    // the time is an ISO instant to the millisecond, as pino.stdTimeFunctions.isoTime writes it
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    expect(Math.abs(Date.parse(parsed.time) - Date.now())).toBeLessThan(5000);
    expect(parsed).toMatchObject({ level: 30, reqId: 'req-1' });
  });

  it('reqId comes from the request context too (a request logger without it falls back to log.info)', async () => {
    const { lines, log } = capture();
    // no reqId bound: the caller logs through pino (whose mixin adds the context's reqId)
    expect(writeAccessLine(log, 'GET', ',"route":"/x"', 200, 1, 'request completed')).toBe(false);
    requestContext.run({ reqId: 'ctx-1' }, () => log.info({ method: 'GET' }, 'm'));
    await flush();
    expect(JSON.parse(lines[0])).toMatchObject({ reqId: 'ctx-1', method: 'GET', msg: 'm' });
  });

  it('writes nothing when info is off, and leaves other loggers to log.info', async () => {
    const quiet = capture('warn');
    expect(writeAccessLine(quiet.log.child({ reqId: 'r' }), 'GET', '', 200, 1, 'request completed')).toBe(true);
    await flush();
    expect(quiet.lines).toEqual([]);
    const foreign = pino({ level: 'info' }, new Writable({ write: (_c, _e, cb) => cb() }));
    expect(writeAccessLine(foreign.child({ reqId: 'r' }), 'GET', '', 200, 1, 'request completed')).toBe(false);
  });
});

describe('requestLoggerFactory (req.log without pino’s per-child work)', () => {
  it('makes the logger log.child({ reqId }) makes: same lines, children and bindings', async () => {
    const { lines, log } = capture('debug');
    const factory = requestLoggerFactory();
    const fast = factory(log, { reqId: 'r-"1' }, {});
    const slow = log.child({ reqId: 'r-"1' }, {});
    for (const l of [fast, slow]) {
      l.info({ a: 1 }, 'one');
      l.debug('two');
      l.child({ k: 'v' }).warn(new Error('boom'), 'three');
      requestContext.run({ reqId: 'other' }, () => l.info('four')); // its own reqId stays: no second one
    }
    await flush();
    // 4 lines each, in the same order; the error's stack differs by its line only.
    expect(lines).toHaveLength(8);
    const norm = (s: string) => noTime(s).replace(/"stack":"[^"]*"/, '"stack":"S"');
    expect(lines.slice(0, 4).map(norm)).toEqual(lines.slice(4).map(norm));
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, reqId: 'r-"1', a: 1, msg: 'one' });
    expect(JSON.parse(lines[3])).toMatchObject({ reqId: 'r-"1', msg: 'four' });
    expect(fast.bindings()).toEqual(slow.bindings());
    expect(writeAccessLine(fast, 'GET', '', 200, 1, 'request completed')).toBe(true);
  });

  it('leaves a route-level level or other bindings to pino', async () => {
    const { lines, log } = capture();
    const factory = requestLoggerFactory();
    const quiet = factory(log, { reqId: 'q' }, { level: 'warn' });
    quiet.info('hidden');
    quiet.warn('shown');
    factory(log, { reqId: 'x', extra: 2 }, {}).info('both');
    await flush();
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([
      { reqId: 'q', msg: 'shown' },
      { reqId: 'x', extra: 2, msg: 'both' },
    ]);
  });
});

describe('fastifyLogger (the process logger whose child is the fast request logger)', () => {
  it('writes what the process logger and its pino children write; children of children work', async () => {
    const { lines, log } = capture('debug');
    const root = fastifyLogger(log);
    root.info({ a: 1 }, 'root'); // 1: the process logger's own line
    log.info({ a: 1 }, 'root'); // 2
    const fast = root.child({ reqId: 'r-1' }); // Fastify's default factory: logger.child(bindings, opts)
    const slow = log.child({ reqId: 'r-1' });
    fast.info('req'); // 3
    slow.info('req'); // 4
    // a child of a request logger (its own bindings: pino's child), and a level of its own
    fast.child({ k: 'v' }).warn('grandchild'); // 5
    slow.child({ k: 'v' }).warn('grandchild'); // 6
    root.child({ reqId: 'q' }, { level: 'warn' }).info('hidden');
    await flush();
    expect(lines).toHaveLength(6);
    for (const i of [0, 2, 4]) expect(noTime(lines[i])).toBe(noTime(lines[i + 1]));
    expect(JSON.parse(lines[4])).toMatchObject({ level: 40, reqId: 'r-1', k: 'v', msg: 'grandchild' });
    // the request logger is the fast one: writeAccessLine writes its line directly
    expect(writeAccessLine(fast, 'GET', '', 200, 1, 'request completed')).toBe(true);
    expect(fast.bindings()).toEqual({ reqId: 'r-1' });
  });
});
