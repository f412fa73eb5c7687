/**
 * Hostile WebSocket use of issue #21 (H6, M5): subscriptions are capped per connection and per
 * user, an event costs one load per viewer (not per subscription), and a frame larger than
 * WS_MAX_PAYLOAD_BYTES closes the connection before anything parses it, signed in or not.
 */
import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { aPublicPlayer, aScoreImport, follows } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { underAttack, warmUp } from './hostile';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

let s: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  s = await startTestServer();
  await warmUp(s.url);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

function wsClient(token: string): Client {
  const client = createClient({
    url: s.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => {},
  });
  clients.push(client);
  return client;
}

/** Subscribes; resolves 'error' with the first error, or collects events. */
function subscribe(client: Client, query: string) {
  const events: any[] = [];
  let failure: unknown;
  const unsubscribe = client.subscribe(
    { query },
    { next: (v) => void events.push(v), error: (e) => void (failure = e), complete: () => {} },
  );
  return { events, unsubscribe, failed: () => failure };
}

/** Polls `cond` (every 10 ms, at most 10 s): WebSocket frames need real time, not event-loop turns. */
async function until(cond: () => boolean, what: string) {
  const end = Date.now() + 10_000;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

describe('H6: subscriptions are bounded and fan out without a query per subscription', () => {
  it('refuses the 11th subscription of a connection and the 21st of a user (SUBSCRIPTIONS_PER_CONNECTION 10, _PER_USER 20)', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const c1 = wsClient(token);
    const subs = Array.from({ length: 11 }, () => subscribe(c1, 'subscription { timelineEntryAdded { id } }'));
    await until(
      () =>
        subs.filter((x) => x.failed()).length === 1 &&
        s.app.pubsub.subscriberCount('TIMELINE_ENTRY_ADDED', u.id) === 10,
      'ten subscriptions and one refusal',
    );
    expect(JSON.stringify(subs[10].failed())).toMatch(/At most 10 subscriptions per connection/);
    // a second connection: 10 more reach the user's 20; a third connection's first is refused
    const c2 = wsClient(token);
    const more = Array.from({ length: 10 }, () =>
      subscribe(c2, 'subscription { notificationAdded { id: databaseId } }'),
    );
    await until(() => s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', u.id) === 10, 'twenty subscriptions');
    expect(more.every((x) => !x.failed())).toBe(true);
    const c3 = wsClient(token);
    const over = subscribe(c3, 'subscription { notificationAdded { id: databaseId } }');
    await until(() => over.failed() !== undefined, 'the 21st refused');
    expect(JSON.stringify(over.failed())).toMatch(/At most 20 open subscriptions per user/);
    for (const x of [...subs, ...more]) x.unsubscribe();
    await until(
      () =>
        s.app.pubsub.subscriberCount('TIMELINE_ENTRY_ADDED', u.id) === 0 &&
        s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', u.id) === 0,
      'all ended',
    );
  });

  it('an import seen by 10 subscriptions of one follower costs one load, not one per subscription', async () => {
    const fan = await aPublicPlayer(s.db.prisma);
    const star = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, fan, star);
    const c = wsClient(await s.tokenFor(fan.id));
    const subs = Array.from({ length: 10 }, () =>
      subscribe(c, 'subscription { timelineEntryAdded { databaseId exScore } }'),
    );
    await until(() => s.app.pubsub.subscriberCount('TIMELINE_ENTRY_ADDED', fan.id) === 10, 'ten subscriptions');
    const chart = (await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
    const imp = await aScoreImport(s.db.prisma, star, [{ chartId: chart, exScore: 900 }]);
    s.sql.reset();
    await underAttack(
      s.url,
      5000,
      async () => {
        s.app.events.emit('scores.imported', {
          userId: star.id,
          version: imp.version,
          batchId: imp.batchId,
          chartIds: imp.chartIds,
        });
        await until(() => subs.every((x) => x.events.length === 1), 'the event on every subscription');
      },
      undefined,
      false,
    );
    for (const x of subs)
      expect(x.events[0].data.timelineEntryAdded).toEqual({ databaseId: imp.scores[0].id, exScore: 900 });
    // The listener: overtaken check 1, followers 1, plays 1; the fan-out: the timeline entry once and
    // the connection's credential once (was: both once per subscription, 20 statements). Since the
    // stats area keeps RadarCache, the same event also refreshes the importer's row (a read of their
    // bests, then an upsert in a transaction: up to 4 more) — per import, not per subscription.
    const timelineLoads = s.sql.statements.filter((q) => /FROM "Score" s/.test(q) && /LIMIT/.test(q)).length;
    expect(timelineLoads).toBe(1);
    expect(s.sql.count).toBeLessThanOrEqual(10);
    for (const x of subs) x.unsubscribe();
  });
});

describe('M5: WebSocket frames are bounded before anything parses them', () => {
  async function closeCodeAfter(send: (ws: WebSocket) => void, init?: object): Promise<number> {
    const ws = new WebSocket(s.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    if (init) {
      ws.send(JSON.stringify({ type: 'connection_init', payload: init }));
      await new Promise((resolve) => ws.once('message', resolve)); // connection_ack
    }
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('error', () => {});
    send(ws);
    return closed;
  }

  it('closes with 1009 (message too big) on a 2 MB frame, before and after connection_init', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const r = await underAttack(s.url, 3000, async () => [
      await closeCodeAfter((ws) => ws.send(JSON.stringify({ type: 'connection_init', payload: { pad: big } }))),
      await closeCodeAfter(
        (ws) =>
          ws.send(
            JSON.stringify({
              id: '1',
              type: 'subscribe',
              payload: { query: `subscription { notificationAdded { id: databaseId } } #${big}` },
            }),
          ),
        {
          authorization: `Bearer ${await s.tokenFor((await aPublicPlayer(s.db.prisma)).id)}`,
        },
      ),
    ]);
    expect(r.result).toEqual([1009, 1009]);
  });
});
