import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

// 'graphql-ws/client' is an `exports` subpath (CommonJS build), typed from its declaration file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

let s: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

function wsClient(token?: string): Client {
  const client = createClient({
    url: s.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => {},
  });
  clients.push(client);
  return client;
}

/** Subscribes and resolves once the server has acknowledged the connection (ready to receive). */
function subscribe(client: Client, query: string) {
  const received: any[] = [];
  const waiters: ((v: any) => void)[] = [];
  let error: ((e: unknown) => void) | undefined;
  const failed = new Promise<unknown>((resolve) => (error = resolve));
  const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  const unsubscribe = client.subscribe(
    { query },
    {
      next: (v) => {
        const w = waiters.shift();
        if (w) w(v);
        else received.push(v);
      },
      error: (e) => error?.(e),
      complete: () => {},
    },
  );
  return {
    connected,
    failed,
    unsubscribe,
    next(): Promise<any> {
      const v = received.shift();
      if (v) return Promise.resolve(v);
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/**
 * Waits until the server holds `n` subscriptions of the viewer on the topic (at most 20 s: on
 * PostgreSQL a subscription is live after its LISTEN, which a loaded machine can take a while to
 * answer; counting event-loop turns instead ran out there).
 */
async function untilSubscribed(topic: 'NOTIFICATION_ADDED' | 'TIMELINE_ENTRY_ADDED', userId: string, n = 1) {
  const until = Date.now() + 20_000;
  while (Date.now() < until && s.app.pubsub.subscriberCount(topic, userId) !== n)
    await new Promise((r) => setTimeout(r, 2));
  expect(s.app.pubsub.subscriberCount(topic, userId)).toBe(n);
}

describe('GraphQL subscriptions over WebSocket (graphql-ws)', () => {
  it('delivers notificationAdded to the authenticated viewer only', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const bystander = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    const sub = subscribe(
      wsClient(await s.tokenFor(me.id)),
      'subscription { notificationAdded { id: databaseId type actorId actor { id: databaseId name } read } }',
    );
    const other = subscribe(
      wsClient(await s.tokenFor(bystander.id)),
      'subscription { notificationAdded { id: databaseId type } }',
    );
    await untilSubscribed('NOTIFICATION_ADDED', me.id);
    await untilSubscribed('NOTIFICATION_ADDED', bystander.id);
    let got: any;
    const first = sub.next().then((v) => (got = v));
    expectNoErrors(
      await s.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: me.id }, await s.tokenFor(fan.id)),
    );
    await first;
    const stored = await s.db.prisma.notification.findFirstOrThrow({ where: { recipientId: me.id } });
    expect(got).toEqual({
      data: {
        notificationAdded: {
          id: stored.id,
          type: 'NEW_FOLLOWER',
          actorId: fan.id,
          actor: { id: fan.id, name: fan.name },
          read: false,
        },
      },
    });

    // the bystander's subscription saw nothing: its next event is its own notification
    const otherNext = other.next();
    expectNoErrors(
      await s.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: bystander.id }, await s.tokenFor(fan.id)),
    );
    expect((await otherNext).data.notificationAdded.type).toBe('NEW_FOLLOWER');
    const own = await s.db.prisma.notification.findFirstOrThrow({ where: { recipientId: bystander.id } });
    expect(own.id).not.toBe(stored.id);
    sub.unsubscribe();
    other.unsubscribe();
    await untilSubscribed('NOTIFICATION_ADDED', me.id, 0);
  });

  it('delivers timelineEntryAdded and OVERTAKEN after a scores.imported event, to followers who may see the player', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const rival = await aPrivatePlayer(s.db.prisma);
    await follows(s.db.prisma, me, rival, { approved: true });
    const chart = (await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
    await aScoreImport(s.db.prisma, me, [{ chartId: chart, exScore: 800 }]);
    const client = wsClient(await s.tokenFor(me.id));
    const tl = subscribe(
      client,
      'subscription { timelineEntryAdded { databaseId userId exScore isOvertaken viewerScore { exScore } } }',
    );
    const nt = subscribe(client, 'subscription { notificationAdded { type actorId chartId actorExScore myExScore } }');
    await untilSubscribed('TIMELINE_ENTRY_ADDED', me.id);
    await untilSubscribed('NOTIFICATION_ADDED', me.id);
    const tlNext = tl.next();
    const ntNext = nt.next();
    const imp = await aScoreImport(s.db.prisma, rival, [{ chartId: chart, exScore: 900 }]);
    s.app.events.emit('scores.imported', {
      userId: rival.id,
      version: imp.version,
      batchId: imp.batchId,
      chartIds: imp.chartIds,
    });
    expect((await tlNext).data.timelineEntryAdded).toEqual({
      databaseId: imp.scores[0].id,
      userId: rival.id,
      exScore: 900,
      isOvertaken: true,
      viewerScore: { exScore: 800 },
    });
    expect((await ntNext).data.notificationAdded).toEqual({
      type: 'OVERTAKEN',
      actorId: rival.id,
      chartId: chart,
      actorExScore: 900,
      myExScore: 800,
    });
    tl.unsubscribe();
    nt.unsubscribe();
  });

  it('end to end: an import through Mutation.importScores overtakes a follower, who hears it live', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const rival = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, me, rival);
    const row = await s.db.prisma.chart.findFirstOrThrow({
      where: { playStyle: 'SP', notes: { gt: 900 } },
      orderBy: { id: 'asc' },
    });
    const chart = s.app.catalogue.chart(row.id)!;
    await aScoreImport(s.db.prisma, me, [{ chartId: chart.id, exScore: 700 }]);
    const sub = subscribe(
      wsClient(await s.tokenFor(me.id)),
      'subscription { notificationAdded { type actorId chartId actorExScore myExScore chart { id: databaseId } } }',
    );
    await untilSubscribed('NOTIFICATION_ADDED', me.id);
    const next = sub.next();
    const IMPORT =
      'mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { updatedCount } }';
    const rows = [{ title: chart.title, difficulty: chart.difficulty, exScore: 800, clearState: 'CLEAR' }];
    expectNoErrors(await s.gql(IMPORT, { u: rival.id, rows }, await s.tokenFor(rival.id)));
    expect((await next).data.notificationAdded).toEqual({
      type: 'OVERTAKEN',
      actorId: rival.id,
      chartId: chart.id,
      actorExScore: 800,
      myExScore: 700,
      chart: { id: chart.id },
    });
    sub.unsubscribe();
  });

  it('ends a subscription whose token is no longer valid at the next event', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    let completed!: () => void;
    const done = new Promise<void>((r) => (completed = r));
    const events: any[] = [];
    wsClient(await s.tokenFor(me.id)).subscribe(
      { query: 'subscription { notificationAdded { type } }' },
      { next: (v) => events.push(v), error: () => {}, complete: () => completed() },
    );
    await untilSubscribed('NOTIFICATION_ADDED', me.id);
    const original = s.app.auth.resolveViewer.bind(s.app.auth);
    s.app.auth.resolveViewer = async () => {
      throw new Error('token revoked');
    };
    try {
      expectNoErrors(
        await s.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: me.id }, await s.tokenFor(fan.id)),
      );
      await done;
    } finally {
      s.app.auth.resolveViewer = original;
    }
    expect(events).toEqual([]);
    await untilSubscribed('NOTIFICATION_ADDED', me.id, 0);
  });

  it('refuses subscriptions without a viewer, queries / too deep operations over WebSocket, and connections with a bad token', async () => {
    const anon = subscribe(wsClient(), 'subscription { notificationAdded { id: databaseId } }');
    const err: any = await anon.failed;
    expect(err[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });

    // queries and mutations belong to HTTP (where write rate limits apply); depth limits apply here too
    const me = await aPublicPlayer(s.db.prisma);
    const authed = wsClient(await s.tokenFor(me.id));
    const query = subscribe(authed, 'query { serverInfo { name } }');
    expect(((await query.failed) as any)[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    const nest = (n: number): string => (n === 0 ? 'id' : `followers { edges { node { ${nest(n - 1)} } } }`);
    const deep = subscribe(authed, `subscription { notificationAdded { actor { ${nest(6)} } } }`);
    expect(((await deep.failed) as any)[0].message).toMatch(/depth/);

    const bad = subscribe(wsClient('not-a-real-token'), 'subscription { notificationAdded { id: databaseId } }');
    const closed: any = await bad.failed;
    expect(closed.code).toBe(4403);
  });
});
