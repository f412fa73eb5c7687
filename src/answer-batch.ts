import type { FastifyReply } from 'fastify';
import { requestContext } from './logger';

/**
 * Answers written together at the end of the event loop's turn (issue #32; docs/performance.md,
 * "What runs per request", step 5).
 *
 * The hot routes (the REST compatibility routes, GraphQL's compiled executor, the plain health
 * probe) compute an answer in a few µs to a few tens of µs. Written at once, every answer is its
 * own `writev` that wakes the peer reading the socket — a client or a reverse proxy on the same
 * host — and the kernel bills that wake-up to the writer: on the calculator under load ~40 % of the server's CPU went there (a bare Node
 * server, faster, finds its peer still awake and pays less). Kept until the turn's other requests
 * are handled (the check phase, right after the poll phase that read them), the answers go out one
 * after the other: the first wakes the peer, the rest find it awake. CPU per request, before and
 * after in one run of the paired guard: REST 86 → 42 µs, GraphQL 101 → 55 µs (bench/RESULTS.md).
 *
 * What it costs: an answer waits for the handlers of the requests read in the same turn — never
 * for I/O. A turn of many cheap handlers is cut at `answerBatch.maxWaitMs` (2 ms): the answer
 * that finds the oldest waiting longer than that sends them all at once.
 */
export const answerBatch = {
  /** The longest an answer waits for the turn's later handlers (a test may change it). */
  maxWaitMs: 2,
};

type Store = Parameters<typeof requestContext.run>[0];
/** What writes one answer: `sendReply` for a Fastify reply, or a caller's own (the plain health probe). */
type Write = (a: never, b: never, c: never, d: never) => void;

/**
 * The writer, its four arguments, the request's log context — six entries per answer (no object
 * per request). The context: the answer is written (and Fastify's onSend / onResponse hooks run)
 * inside the request's own `requestContext`, not inside that of the request whose answer
 * scheduled the turn's flush, so a process-logger line there carries the right `reqId`.
 */
let pending: unknown[] = [];
let spare: unknown[] = [];
let oldest = 0;
let scheduled = false;

/** Sends `body` with `status` and `contentType` on `reply` at the end of this turn of the event loop. */
export function sendAtTurnEnd(reply: FastifyReply, status: number, contentType: string, body: string | Buffer): void {
  writeAtTurnEnd(sendReply, reply, status, contentType, body);
}

/**
 * Calls `write(a, b, c, d)` at the end of this turn of the event loop, with the turn's other
 * answers, in order: for an answer written without Fastify's reply (src/http.ts healthzFirst).
 * `write` reports its own errors (as `sendReply` does): one answer must not keep the others.
 */
export function writeAtTurnEnd<A, B, C, D>(write: (a: A, b: B, c: C, d: D) => void, a: A, b: B, c: C, d: D): void {
  if (pending.length === 0) oldest = performance.now();
  pending.push(write, a, b, c, d, requestContext.getStore());
  if (!scheduled) {
    scheduled = true;
    setImmediate(atTurnEnd);
  } else if (performance.now() - oldest > answerBatch.maxWaitMs) flush();
}

function atTurnEnd(): void {
  scheduled = false;
  flush();
}

/** Writes what is pending (a flush cut short by maxWaitMs leaves the scheduled one the later answers). */
function flush(): void {
  const batch = pending;
  pending = spare;
  spare = batch;
  for (let i = 0; i < batch.length; i += 6)
    // (an answer without a request context — the health probe — is written with none: run(undefined))
    requestContext.run(
      batch[i + 5] as Store,
      batch[i] as Write,
      batch[i + 1] as never,
      batch[i + 2] as never,
      batch[i + 3] as never,
      batch[i + 4] as never,
    );
  batch.length = 0;
}

function sendReply(reply: FastifyReply, status: number, contentType: string, body: string | Buffer): void {
  try {
    reply.code(status).header('content-type', contentType).send(body);
  } catch (err) {
    // (one answer that cannot be sent must not keep the others)
    reply.log.error({ err }, 'answer not sent');
  }
}
