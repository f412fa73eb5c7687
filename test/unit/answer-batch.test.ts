import Fastify, { type FastifyReply } from 'fastify';
import net from 'node:net';
import { answerBatch, sendAtTurnEnd, writeAtTurnEnd } from '../../src/answer-batch';
import { requestContext } from '../../src/logger';

/** A reply that records what it was sent, and when (in `log`). */
function fakeReply(name: string, log: string[], opts: { throws?: boolean } = {}) {
  const errors: unknown[] = [];
  const reply = {
    status: 0,
    type: '',
    code(s: number) {
      this.status = s;
      return this;
    },
    header(_n: string, v: string) {
      this.type = v;
      return this;
    },
    send(body: string) {
      if (opts.throws) throw new Error('socket gone');
      log.push(`${name}:${this.status}:${this.type}:${body}`);
      return this;
    },
    log: { error: (obj: unknown) => errors.push(obj) },
    errors,
  };
  return reply;
}
const asReply = (r: unknown) => r as FastifyReply;
const nextTurn = () => new Promise((r) => setImmediate(r));

describe('sendAtTurnEnd (answers written at the end of the event loop turn)', () => {
  // A loaded test machine can stall a turn past the 2 ms cut (a GC pause between two handlers):
  // the tests of what a turn's batch does give it room; the cut has its own test.
  beforeEach(() => (answerBatch.maxWaitMs = 1000));
  afterAll(() => (answerBatch.maxWaitMs = 2));
  it('writes nothing at once; at the turn end every answer of the turn, in order, with its status and type', async () => {
    const log: string[] = [];
    sendAtTurnEnd(asReply(fakeReply('a', log)), 200, 'application/json', '{"a":1}');
    sendAtTurnEnd(asReply(fakeReply('b', log)), 429, 'text/plain', 'slow down');
    sendAtTurnEnd(asReply(fakeReply('c', log)), 200, 'application/json', '{"c":3}');
    expect(log).toEqual([]); // still in the turn that computed them
    await Promise.resolve(); // microtasks of the turn: still nothing
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual([
      'a:200:application/json:{"a":1}',
      'b:429:text/plain:slow down',
      'c:200:application/json:{"c":3}',
    ]);
    // the next turn's answers form a new batch
    sendAtTurnEnd(asReply(fakeReply('d', log)), 201, 'text/plain', 'd');
    expect(log).toHaveLength(3);
    await nextTurn();
    expect(log[3]).toBe('d:201:text/plain:d');
  });

  it('an answer that cannot be sent is logged and does not keep the others', async () => {
    const log: string[] = [];
    const bad = fakeReply('bad', log, { throws: true });
    sendAtTurnEnd(asReply(fakeReply('a', log)), 200, 't', '1');
    sendAtTurnEnd(asReply(bad), 200, 't', '2');
    sendAtTurnEnd(asReply(fakeReply('c', log)), 200, 't', '3');
    await nextTurn();
    expect(log).toEqual(['a:200:t:1', 'c:200:t:3']);
    expect(bad.errors).toHaveLength(1);
    expect((bad.errors[0] as { err: Error }).err.message).toBe('socket gone');
  });

  it("each answer is written in its own request's log context, not in that of the turn's first", async () => {
    const seen: (string | undefined)[] = [];
    const replyLogging = (name: string) => {
      const r = fakeReply(name, []);
      const send = r.send.bind(r);
      r.send = (body: string) => {
        seen.push(`${name}:${requestContext.getStore()?.reqId}`);
        return send(body);
      };
      return r;
    };
    // the flush is scheduled inside request a's context
    requestContext.run({ reqId: 'a' }, () => sendAtTurnEnd(asReply(replyLogging('A')), 200, 't', '1'));
    requestContext.run({ reqId: 'b' }, () => sendAtTurnEnd(asReply(replyLogging('B')), 200, 't', '2'));
    sendAtTurnEnd(asReply(replyLogging('C')), 200, 't', '3'); // (no request context)
    await nextTurn();
    expect(seen).toEqual(['A:a', 'B:b', 'C:undefined']);
  });

  it("an answer written by the caller's own function (the health probe) waits for the turn's end too, in order with the others", async () => {
    const log: string[] = [];
    const write = (name: string, n: number, ok: boolean, extra: undefined) =>
      log.push(`${name}:${n}:${ok}:${String(extra)}:${requestContext.getStore()?.reqId}`);
    sendAtTurnEnd(asReply(fakeReply('a', log)), 200, 't', '1');
    writeAtTurnEnd(write, 'probe', 7, true, undefined);
    requestContext.run({ reqId: 'c' }, () => writeAtTurnEnd(write, 'other', 8, false, undefined));
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['a:200:t:1', 'probe:7:true:undefined:undefined', 'other:8:false:undefined:c']);
  });

  it('a turn longer than 2 ms is cut: the answer that finds the oldest waiting longer sends them all', async () => {
    answerBatch.maxWaitMs = 2;
    const log: string[] = [];
    sendAtTurnEnd(asReply(fakeReply('a', log)), 200, 't', '1');
    const until = performance.now() + 3; // a turn of handlers lasting 3 ms
    while (performance.now() < until);
    expect(log).toEqual([]);
    sendAtTurnEnd(asReply(fakeReply('b', log)), 200, 't', '2');
    expect(log).toEqual(['a:200:t:1', 'b:200:t:2']); // sent at once, in order
    sendAtTurnEnd(asReply(fakeReply('c', log)), 200, 't', '3');
    expect(log).toHaveLength(2); // a new batch: waits for the turn end
    await nextTurn();
    expect(log).toEqual(['a:200:t:1', 'b:200:t:2', 'c:200:t:3']);
  });

  describe('through Fastify', () => {
    const app = Fastify();
    let sentAtHandlerEnd: boolean[] = [];
    app.get('/sync', (req, reply) => {
      sendAtTurnEnd(
        reply,
        200,
        'application/json; charset=utf-8',
        JSON.stringify({ n: Number((req.query as { n: string }).n) }),
      );
      sentAtHandlerEnd.push(reply.sent);
      return undefined;
    });
    // an asynchronous handler resolves to the reply (a thenable): Fastify waits for it to be sent
    app.get('/async', async (_req, reply) => {
      await new Promise((r) => setTimeout(r, 5));
      sendAtTurnEnd(reply, 202, 'text/plain', 'later');
      return reply;
    });
    app.get('/gone', (req, reply) => {
      req.raw.socket.destroy(); // the client left before the turn ended
      sendAtTurnEnd(reply, 200, 'text/plain', 'nobody reads this');
      return undefined;
    });
    let port = 0;
    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as net.AddressInfo).port;
    });
    afterAll(() => app.close());

    it('answers concurrent requests, each its own body, none written before its handler returned', async () => {
      sentAtHandlerEnd = [];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          fetch(`http://127.0.0.1:${port}/sync?n=${n}`).then(async (r) => [
            r.status,
            r.headers.get('content-type'),
            await r.json(),
          ]),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 20 }, (_, n) => [200, 'application/json; charset=utf-8', { n }]));
      expect(sentAtHandlerEnd).toEqual(Array(20).fill(false));
    });

    it('an asynchronous handler returning the reply gets its answer, sent once', async () => {
      const r = await fetch(`http://127.0.0.1:${port}/async`);
      expect([r.status, await r.text()]).toEqual([202, 'later']);
    });

    it('pipelined requests on one connection are answered in order, each with its own body', async () => {
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.write([3, 1, 2].map((n) => `GET /sync?n=${n} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if ((out.match(/HTTP\/1\.1 200/g) ?? []).length === 3) {
            clearInterval(poll);
            resolve();
          }
        }, 5);
      });
      socket.destroy();
      expect([...out.matchAll(/\{"n":(\d)\}/g)].map((m) => Number(m[1]))).toEqual([3, 1, 2]);
    });

    it('a client gone before the turn ended: the server goes on answering', async () => {
      await expect(fetch(`http://127.0.0.1:${port}/gone`)).rejects.toThrow();
      const r = await fetch(`http://127.0.0.1:${port}/sync?n=7`);
      expect(await r.json()).toEqual({ n: 7 });
    });
  });
});
