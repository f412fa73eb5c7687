/**
 * Subscriptions across server processes: two apps (each with its own in-process state and HTTP
 * server) share one database and one Redis; a notification committed through server A reaches a
 * WebSocket subscriber connected to server B. Needs `redis-server` on the PATH (skipped otherwise).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { createApp, type App } from '../../../src/app';
import { createHttpServer } from '../../../src/http';
import { createLogger } from '../../../src/logger';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, testConfig, type TestServer } from '../../helpers/server';
import { describeIf } from '../../helpers/skip';
import { freePort } from '../../helpers/ports';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const describeRedis = describeIf(hasRedis, 'redis-server not found on PATH (the cross-process pub/sub test needs one)');

async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) resolve();
    });
    proc.on('exit', (c) => reject(new Error(`redis-server exited (${c})`)));
  });
  return proc;
}

describeRedis('subscriptions across processes through Redis (REDIS_URL)', () => {
  let redis: ChildProcess;
  let a: TestServer;
  let b: { app: App; url: string; close(): Promise<void> };
  let client: Client | undefined;

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    a = await startTestServer({ env });
    const app = await createApp(testConfig(env), a.db, createLogger('silent'));
    const { fastify } = await createHttpServer(app);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    b = {
      app,
      url: `http://127.0.0.1:${(fastify.server.address() as net.AddressInfo).port}`,
      close: () => fastify.close(),
    };
  });
  afterAll(async () => {
    await client?.dispose();
    await b?.close();
    await a?.close();
    redis?.kill();
  });

  it('a notification created on server A reaches a subscriber on server B', async () => {
    expect(a.app.pubsub.kind).toBe('redis');
    expect(b.app.pubsub.kind).toBe('redis');
    const me = await aPublicPlayer(a.db.prisma);
    const fan = await aPublicPlayer(a.db.prisma);
    client = createClient({
      url: b.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${(await b.app.auth.issueAccessToken(me.id)).token}` },
      retryAttempts: 0,
    });
    const received = new Promise<any>((resolve, reject) => {
      client!.subscribe(
        { query: 'subscription { notificationAdded { type actorId } }' },
        { next: resolve, error: reject, complete: () => {} },
      );
    });
    for (let i = 0; i < 10_000 && b.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id) < 1; i++)
      await new Promise((r) => setImmediate(r));
    expect(b.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(1);
    await b.app.pubsub.settled(); // Redis acknowledged B's SUBSCRIBE
    expectNoErrors(
      await a.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: me.id }, await a.tokenFor(fan.id)),
    );
    expect((await received).data.notificationAdded).toEqual({ type: 'NEW_FOLLOWER', actorId: fan.id });
    expect(a.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(0); // it went through Redis, not A's memory
  });
});
