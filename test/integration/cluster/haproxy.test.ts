/**
 * The cluster recipe of docs/cluster.md, driven as shipped: the three API processes of
 * deploy/cluster.json (real server processes, NODE_ENV=production, the same database and
 * secrets) behind haproxy with deploy/haproxy.cfg (bench/cluster-recipe.ts starts both). Checks:
 * - a signed-in player's requests stick to one process (balance hdr(authorization)), players are
 *   spread over the processes, and the health checks use /readyz;
 * - a subscription crosses processes: player A's WebSocket (through haproxy) lives on one process,
 *   player B's follow (through haproxy) is served by another, and A receives NEW_FOLLOWER.
 *
 * Needs PostgreSQL (several processes; PGlite is one) and haproxy (apt-get install -y haproxy;
 * .ci/run installs it): skipped with the reason printed otherwise.
 */
import WebSocket from 'ws';
import { HAPROXY_BIN, startRecipe, type RunningCluster } from '../../../bench/cluster-recipe';
import { usingPostgres } from '../../helpers/db';
import { aPublicPlayer } from '../../helpers/factories';
import { TEST_JWT_SECRET, startTestServer, type TestServer } from '../../helpers/server';
import { withDatabase } from '../../helpers/template';
import { describeIf } from '../../helpers/skip';
import { freePort } from '../../helpers/ports';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

const why = !usingPostgres
  ? 'needs PostgreSQL (DATABASE_URL)'
  : !HAPROXY_BIN
    ? 'needs haproxy (apt-get install -y haproxy)'
    : '';
if (why) console.warn(`cluster/haproxy.test: skipped — ${why}`);
const describeCluster = describeIf(!why, why ?? '');

describeCluster('the shipped cluster recipe: 3 processes behind haproxy', () => {
  let s: TestServer;
  let cluster: RunningCluster;

  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
    const [{ db }] = await s.db.prisma.$queryRaw<{ db: string }[]>`SELECT current_database() AS db`;
    cluster = await startRecipe(
      // the shared environment every process gets (docs/cluster.md): same database, same secrets
      {
        DATABASE_URL: withDatabase(process.env.DATABASE_URL!, db),
        JWT_SECRET: TEST_JWT_SECRET,
        PUBLIC_URL: 'http://127.0.0.1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
      },
      freePort,
    );
  }, 600_000);
  afterAll(async () => {
    await cluster?.stop();
    await s?.close();
  });

  /** POST /graphql through the balancer; returns the body and the process that answered. */
  async function viaBalancer(query: string, token: string, variables?: Record<string, unknown>) {
    const res = await fetch(`${cluster.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { body: await res.json(), servedBy: res.headers.get('x-served-by') };
  }

  it('a player sticks to one process; players spread over the three; a subscription crosses processes', async () => {
    expect(cluster.backends.map((b) => b.name)).toEqual(['api-1', 'api-2', 'api-3']);
    const players = await Promise.all(Array.from({ length: 8 }, () => aPublicPlayer(s.db.prisma)));
    const tokens = await Promise.all(players.map((p) => s.tokenFor(p.id)));
    const home: string[] = [];
    for (const token of tokens) {
      const first = await viaBalancer('{ me { id } }', token);
      const again = await viaBalancer('{ me { id } }', token);
      expect(first.servedBy).toMatch(/^api-[123]$/);
      expect(again.servedBy).toBe(first.servedBy); // hash of the Authorization header
      home.push(first.servedBy!);
    }
    expect(new Set(home).size).toBeGreaterThan(1);

    // A (the subscriber) and B (the follower) live on different processes.
    const a = 0;
    const b = home.findIndex((h) => h !== home[a]);
    const authorization = `Bearer ${tokens[a]}`;
    // The upgrade carries the Authorization header too, so A's socket is on A's process (a browser
    // cannot set it: its socket lands anywhere — the bus delivers to every process either way).
    class WithAuth extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { authorization } });
      }
    }
    const client = createClient({
      url: cluster.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WithAuth,
      connectionParams: { authorization },
      retryAttempts: 0,
    });
    try {
      const received = new Promise<any>((resolve, reject) => {
        client.subscribe(
          { query: 'subscription { notificationAdded { type actorId } }' },
          { next: resolve, error: reject, complete: () => {} },
        );
      });
      // the subscription is registered once the server acknowledged it; give the socket a moment
      await new Promise((r) => setTimeout(r, 1500));
      const follow = await viaBalancer('mutation($u: ID!) { follow(userId: $u) { state } }', tokens[b], {
        u: players[a].id,
      });
      expect(follow.body.errors).toBeUndefined();
      expect(follow.servedBy).toBe(home[b]);
      expect(follow.servedBy).not.toBe(home[a]);
      const event = await Promise.race([
        received,
        new Promise((_r, reject) => setTimeout(() => reject(new Error('no event within 20 s')), 20_000)),
      ]);
      expect(event.data.notificationAdded).toEqual({ type: 'NEW_FOLLOWER', actorId: players[b].id });
    } finally {
      await client.dispose();
    }
  }, 120_000);
});
