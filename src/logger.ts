import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The request a piece of work belongs to: set for each HTTP request by src/http.ts (Fastify's
 * request id), so every log line written while serving it carries `reqId` — also from services
 * that log through the process logger (app.log), not only from Fastify's `req.log`.
 */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/**
 * pino's isoTime (`,"time":"2026-11-27T03:52:47.724Z"`): the date and time to the second built
 * once per second, the milliseconds from a table (an access line per request: no Date per line).
 */
const MILLIS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let lastSecond = -1;
let secondPrefix = '';
function isoTime(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    // toISOString: 'YYYY-MM-DDTHH:mm:ss.sssZ' — keep up to the '.' (years 0–9999: fixed width)
    secondPrefix = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`;
  }
  return `${secondPrefix}${MILLIS[now - second * 1000]}Z"`;
}

const NO_FIELDS: Record<string, never> = Object.freeze({});
const { chindingsSym, streamSym, needsMetadataGsym } = pino.symbols;

/** Marks the loggers made by createLogger (their children inherit it): `writeAccessLine` may format their lines itself. */
const OWN_FORMAT = Symbol('bpigraph-own-format');

/** What LineBatch hands its batches to: pino.destination's sonic-boom. */
interface Sink {
  write(chunk: string): boolean;
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
  end(): void;
}

/** The batches still holding lines, drained before pino's own exit hook flushes their sinks. */
const liveBatches = new Set<WeakRef<LineBatch>>();
const drainLive = () => {
  for (const ref of liveBatches) ref.deref()?.drain();
};
process.prependListener('beforeExit', drainLive);
process.prependListener('exit', drainLive);

/**
 * Log lines gathered as an array and handed to the destination as one string of ≥ `min`
 * characters, or every `intervalMs`: the destination (sonic-boom) measures the byte length of
 * its pending string on every write — appending line by line to a 32 KiB string costs O(size)
 * per line, about 6 µs an access line here — and a write to the file or pipe costs about the
 * same whatever its size up to tens of KiB (the thread-pool hand-off and the system call,
 * ~20–60 µs here). So the access log's cost per request is a push and an addition, and one
 * write per ~180 lines under load (#32, bench/RESULTS.md). Partial writes, EAGAIN on a pipe and
 * the synchronous flush on exit stay sonic-boom's: `flushSync`/`flush`/`end` drain first, and so
 * does the process's `exit`/`beforeExit` (listeners put before pino's).
 */
export class LineBatch {
  private lines: string[] = [];
  private chars = 0;

  constructor(
    private readonly sink: Sink,
    private readonly min = 32 * 1024,
    intervalMs = 100,
  ) {
    const ref = new WeakRef(this);
    liveBatches.add(ref);
    const timer = setInterval(() => {
      const batch = ref.deref();
      if (batch === undefined) {
        clearInterval(timer);
        liveBatches.delete(ref);
      } else batch.drain();
    }, intervalMs);
    timer.unref();
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.min) this.drain();
    return true;
  }

  /** Hands what is gathered to the destination (asynchronous: it writes when it can). */
  drain(): void {
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.sink.write(chunk);
  }

  flush(cb?: (err?: Error) => void): void {
    this.drain();
    this.sink.flush(cb);
  }

  flushSync(): void {
    this.drain();
    this.sink.flushSync();
  }

  end(): void {
    this.drain();
    this.sink.end();
  }
}

/**
 * Standard output written asynchronously (sonic-boom, sync: false): a log line never waits for
 * the terminal, pipe or file. Lines gathered by LineBatch (32 KiB, or every 100 ms); pino flushes
 * what is left synchronously on exit (process.exit included).
 */
export function asyncStdout(): pino.DestinationStream {
  return new LineBatch(pino.destination({ dest: 1, sync: false, minLength: 0, maxWrite: 64 * 1024 }));
}

/** The process logger (JSON lines on stdout, written asynchronously, or on `destination`). */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const logger = pino(
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
  (logger as unknown as Record<symbol, boolean>)[OWN_FORMAT] = true;
  return logger;
}

/**
 * Fastify's `childLoggerFactory`: each request's logger (`req.log`, bound to its reqId), the
 * logger `log.child({ reqId })` makes — same prototype chain, same bound fields, same lines —
 * without pino's per-child work: Fastify passes an options object (`{}`) even when empty, which
 * sends pino's `child` down its slow path (formatters rebuilt, options probed) for every request.
 * Here one template child per parent logger carries the formatters, and a request's logger is an
 * object on it with the bindings string (`,"reqId":"…"`, as pino's asChindings writes it).
 * A route-level log level or serializers, a logger not made by createLogger, or other bindings:
 * pino's own `child`.
 */
export function requestLoggerFactory(
  /** pino's own `child` (fastifyLogger overrides `child` itself, so it passes pino's). */
  pinoChild: (logger: Logger, bindings: Record<string, unknown>, opts?: pino.ChildLoggerOptions) => Logger = (
    logger,
    bindings,
    opts,
  ) => logger.child(bindings, opts),
): (logger: Logger, bindings: Record<string, unknown>, opts: { level?: string; serializers?: unknown }) => Logger {
  const templates = new WeakMap<Logger, Logger>();
  return (logger, bindings, opts) => {
    const reqId = bindings.reqId;
    if (
      typeof reqId !== 'string' ||
      opts.level !== undefined ||
      opts.serializers !== undefined ||
      (logger as unknown as Record<symbol, unknown>)[OWN_FORMAT] !== true ||
      Object.keys(bindings).length !== 1
    )
      return pinoChild(logger, bindings, opts as pino.ChildLoggerOptions);
    // (made once per parent: a level set on the parent later would not reach it — nothing here
    // changes a logger's level at run time)
    let template = templates.get(logger);
    if (template === undefined) templates.set(logger, (template = pinoChild(logger, {})));
    const child = Object.create(template) as Record<symbol, string>;
    child[chindingsSym] =
      `${(template as unknown as Record<symbol, string>)[chindingsSym]},"reqId":${JSON.stringify(reqId)}`;
    return child as unknown as Logger;
  };
}

/**
 * The logger Fastify is given: the process logger (its prototype: same level, stream, bindings and
 * lines) whose `child` makes request loggers the requestLoggerFactory way. Fastify calls
 * `logger.child` for each request's `req.log` when it uses its own default factory; with a custom
 * `childLoggerFactory` it also validates every logger the factory returns (an array of seven method
 * names filtered per request: ~1 µs of a ~35 µs request here, #32). Children of these loggers
 * (`req.log.child(…)`) inherit the same `child`.
 */
export function fastifyLogger(log: Logger): Logger {
  const pinoChild = log.child as unknown as (
    this: Logger,
    bindings: Record<string, unknown>,
    opts?: pino.ChildLoggerOptions,
  ) => Logger;
  const make = requestLoggerFactory((logger, bindings, opts) => pinoChild.call(logger, bindings, opts));
  const root = Object.create(log) as Logger;
  root.child = function (this: Logger, bindings: Record<string, unknown>, opts?: pino.ChildLoggerOptions) {
    return make(this, bindings, opts ?? {});
  } as unknown as Logger['child'];
  return root;
}

/** pino's number formatting (a non-finite number is null). */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/**
 * The access line of a request, `log.info({method, route, operation?, status, ms}, msg)` byte
 * for byte, written without pino's generic path (the mixin, the merge, a loop over the object's
 * keys): one line per request is the default (an operator runs it), so it is on the hot path.
 * `fields` is the JSON of what is fixed per route and operation (`,"route":"/graphql","operation":"q"`),
 * built once by the caller; `method` a token (Fastify answers 400 to any other method).
 * Returns false, writing nothing, for what the caller must log through `log.info`: loggers not
 * made by createLogger, a request logger without a bound reqId, a stream that wants pino's
 * metadata (multistream). True when written, or when the level is off.
 */
export function writeAccessLine(
  log: object,
  method: string,
  fields: string,
  status: number,
  ms: number,
  message: string,
): boolean {
  const own = log as Record<symbol, unknown>;
  if (own[OWN_FORMAT] !== true) return false;
  if (!(log as Logger).isLevelEnabled('info')) return true;
  const bound = own[chindingsSym] as string | undefined;
  const stream = own[streamSym] as ({ write(line: string): void } & Record<symbol, unknown>) | undefined;
  if (bound === undefined || !bound.includes(',"reqId":') || stream?.[needsMetadataGsym]) return false;
  stream!.write(
    `{"level":30${isoTime()}${bound},"method":"${method}"${fields},"status":${num(status)},"ms":${num(ms)},"msg":${JSON.stringify(message)}}\n`,
  );
  return true;
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
