/**
 * Read replicas with a real streaming replica (built on loopback from the machine's PostgreSQL
 * binaries: initdb a primary, pg_basebackup a hot standby): read-only requests are served by the
 * replica, writes by the primary, and a player never sees stale data of their own — even when
 * the replica's replay is paused (pg_wal_replay_pause) for longer than any "sticky window".
 *
 * Runs with the PostgreSQL suite (DATABASE_URL set) and needs /usr/lib/postgresql/15/bin (or
 * PG_BIN); skipped on PGlite, which has no replicas.
 */
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../../../src/app';
import { openDatabase, type DatabaseHandle } from '../../../src/db/client';
import { applyMigrations } from '../../../src/db/migrate';
import { createHttpServer } from '../../../src/http';
import { createLogger } from '../../../src/logger';
import { usingPostgres } from '../../helpers/db';
import { aPublicPlayer } from '../../helpers/factories';
import { hasPgBinaries, startStreamingPair, type StreamingPair } from '../../helpers/replica';
import { testConfig } from '../../helpers/server';
import { within } from '../../helpers/cluster';
import { describeIf } from '../../helpers/skip';

const run = usingPostgres && hasPgBinaries;
const describeReplica = describeIf(
  run,
  usingPostgres
    ? 'no PostgreSQL binaries at PG_BIN'
    : 'PostgreSQL only: PGlite has no replicas (run with DATABASE_URL)',
);

describeReplica('read replicas (DATABASE_REPLICA_URLS) with a real streaming replica', () => {
  let pair: StreamingPair;
  let db: DatabaseHandle;
  let app: App;
  let url: string;
  let close: () => Promise<void>;

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: any[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const nameOf = async (id: string, token?: string) =>
    (await gql('query($id: ID!) { user(id: $id) { name } }', { id }, token)).user.name as string;

  beforeAll(async () => {
    pair = await startStreamingPair(async (primaryUrl) => {
      const h = await openDatabase({ url: primaryUrl, poolMax: 2 });
      await applyMigrations(h.adapterFactory);
      await h.close();
    });
    db = await openDatabase({ url: pair.primaryUrl, replicaUrls: [pair.replicaUrl], poolMax: 4 });
    app = await createApp(testConfig(), db, createLogger('silent'));
    const { fastify } = await createHttpServer(app);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
    close = () => fastify.close();
  }, 180_000);
  afterAll(async () => {
    await close?.();
    await db?.close();
    await pair?.stop();
  });

  it('a read-only request is served by the replica, a write by the primary', async () => {
    const other = await aPublicPlayer(db.prisma, { name: 'before' });
    // wait until the replica has the row, then pause its replay
    expect(
      await within(
        10_000,
        async () => (await pair.queryReplica('SELECT 1 FROM "User" WHERE id = $1', [other.id])).length === 1,
      ),
    ).not.toBeNull();
    await pair.pauseReplay();
    await db.prisma.user.update({ where: { id: other.id }, data: { name: 'after' } }); // committed on the primary only
    // The anonymous query reads the replica: it still shows the name the replica has.
    expect(await nameOf(other.id)).toBe('before');
    expect((await pair.queryReplica('SELECT name FROM "User" WHERE id = $1', [other.id]))[0].name).toBe('before');
    await pair.resumeReplay();
    expect(await within(5000, async () => (await nameOf(other.id)) === 'after')).not.toBeNull();
  });

  it('a lagging replica never shows a player stale data of their own (replay paused)', async () => {
    const me = await aPublicPlayer(db.prisma, { name: 'old-name' });
    const token = (await app.auth.issueAccessToken(me.id)).token;
    expect(
      await within(
        10_000,
        async () => (await pair.queryReplica('SELECT 1 FROM "User" WHERE id = $1', [me.id])).length === 1,
      ),
    ).not.toBeNull();
    await pair.pauseReplay();
    const updated = await gql('mutation { updateProfile(input: { name: "new-name" }) { user { name } } }', {}, token);
    expect(updated.updateProfile.user.name).toBe('new-name');
    // My own reads: the new name, now and well after any short "sticky window" (the replica still lags).
    expect(await nameOf(me.id, token)).toBe('new-name');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await nameOf(me.id, token)).toBe('new-name');
    expect((await gql('{ me { name } }', {}, token)).me.name).toBe('new-name');
    // Everyone else reads the replica, which has not replayed the change yet.
    expect(await nameOf(me.id)).toBe('old-name');
    // Once the replica replays past my write, my reads go back to it.
    await pair.resumeReplay();
    expect(await within(5000, async () => (await nameOf(me.id)) === 'new-name')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 300)); // a poll of the replay position (every 100 ms)
    const before = db.reads!.counts.replica;
    expect(await nameOf(me.id, token)).toBe('new-name');
    expect(db.reads!.counts.replica).toBeGreaterThan(before);
  });
});
