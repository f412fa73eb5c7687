/**
 * Two app instances on one PostgreSQL database (each with its own in-memory caches, cluster bus
 * connection, recompute job and HTTP server — as two server processes have): a change made
 * through one of them, or through the CLI (a third process), is served by the other within 1 s;
 * the recompute job started on both runs once, its progress visible from both, and goes again
 * after a definitions update made through the other meanwhile; a subscription
 * event published on one reaches a client of the other through LISTEN/NOTIFY (no Redis).
 *
 * PostgreSQL only: PGlite is one process by construction (its bus is in-process), so there is no
 * second process to keep coherent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { usingPostgres } from '../../helpers/db';
import { runCli, startInstance, within, type Instance } from '../../helpers/cluster';
import { aPublicPlayer, anAdmin, withBestScore } from '../../helpers/factories';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { recomputeAll } from '../../../src/modules/scores/totals.service';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { describeIf } from '../../helpers/skip';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

const describePg = describeIf(
  usingPostgres,
  'PostgreSQL only: PGlite is one process by construction (run with DATABASE_URL=postgresql://…)',
);

/**
 * One SP ANOTHER chart (1000 notes: max EX 2000) in two vintages. The calculator is asked for
 * EX 1600: in vintage 1 that is the kaiden average (avg 1600) → BPI 0 (S = 1, ln S = 0); in
 * vintage 2 it is the world record (wr 1600) → BPI 100 (S = Z, (ln S / ln Z)^p = 1).
 */
const vintage = (version: string, wr: number, avg: number) => ({
  version,
  requireVersion: '0',
  body: [
    {
      title: 'Cluster Coherence',
      difficulty: '4',
      wr,
      avg,
      notes: 1000,
      bpm: '150',
      textage: '33/cc.html',
      difficultyLevel: '12',
      dpLevel: '0',
      coef: -1,
    },
  ],
});
const V1 = vintage('cluster-1', 1900, 1600);
const V2 = vintage('cluster-2', 1600, 1400);
const calcPath = `/api/v1/bpi/calc?${new URLSearchParams({ title: 'Cluster Coherence', difficulty: 'ANOTHER', exScore: '1600' })}`;

describePg('two app instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: Instance;
  let client: Client | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-cluster-'));

  beforeAll(async () => {
    a = await startTestServer({ seedDemo: false });
    await a.app.bus.ready();
    b = await startInstance(a.db);
  });
  afterAll(async () => {
    await client?.dispose();
    await b?.close();
    await a?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('uses LISTEN/NOTIFY without REDIS_URL', () => {
    expect([a.app.bus.kind, b.app.bus.kind]).toEqual(['postgres', 'postgres']);
    expect(a.app.caches.names).toEqual(expect.arrayContaining(['catalogue', 'arena.averages', 'rankings.popularity']));
  });

  it('a definitions import through instance A (admin mutation) is served by instance B within 1 s', async () => {
    expect((await b.get(calcPath)).status).toBe(404); // B has never heard of the chart
    const token = await a.tokenFor((await anAdmin(a.db.prisma)).id);
    const res = expectNoErrors(
      await a.gql(
        'mutation($j: String!) { importDefinitions(json: $j) { version added } }',
        { j: JSON.stringify(V1) },
        token,
      ),
    );
    expect(res).toEqual({ importDefinitions: { version: 'cluster-1', added: 1 } });
    const took = await within(1000, async () => (await b.get(calcPath)).body.bpi === 0);
    expect(took).not.toBeNull();
    expect((await b.get(calcPath)).body).toMatchObject({ bpi: 0, song: { title: 'Cluster Coherence', notes: 1000 } });
    expect(b.app.catalogue.definitionsVersion).toBe('cluster-1');
  });

  it('a definitions import through the CLI (another process) is served by both instances within 1 s', async () => {
    const file = path.join(tmp, 'v2.json');
    fs.writeFileSync(file, JSON.stringify(V2));
    const cli = await runCli(['definitions', 'import', file], a.db.url!);
    expect({ code: cli.code, out: cli.out }).toMatchObject({
      code: 0,
      out: expect.stringContaining('Definitions cluster-2: 0 added, 1 changed'),
    });
    const [tookA, tookB] = await Promise.all([
      within(1000, async () => (await a.get(calcPath)).body.bpi === 100),
      within(1000, async () => (await b.get(calcPath)).body.bpi === 100),
    ]);
    expect({ tookA: tookA !== null, tookB: tookB !== null }).toEqual({ tookA: true, tookB: true });
  }, 120_000);

  it("charts learned by a score import through the CLI reach both instances' catalogues within 1 s", async () => {
    const player = await aPublicPlayer(a.db.prisma);
    const header = fs
      .readFileSync(path.join(__dirname, '../../fixtures/official-current-layout.csv'), 'utf8')
      .split(/\r?\n/)[0];
    const none = '0,0,0,0,---,NO PLAY,---';
    const file = path.join(tmp, 'learned.csv');
    // a song the definitions lack: the export names the HYPER chart's level (10), so it is learned
    fs.writeFileSync(
      file,
      `${header}\n33 Sparkle Shower,Cluster Learned,POP,Artist,1,${none},${none},10,1000,400,200,9,CLEAR,A,${none},${none},2025-01-02 03:05\n`,
    );
    const learned = (app: typeof a.app) => app.catalogue.find('Cluster Learned', 'SP', 'HYPER') !== undefined;
    expect([learned(a.app), learned(b.app)]).toEqual([false, false]);
    const cli = await runCli(['scores', 'import', '--user', player.id, '--version', '33', file], a.db.url!);
    expect({ code: cli.code, out: cli.out }).toMatchObject({
      code: 0,
      out: expect.stringContaining('1 charts learned'),
    });
    const [tookA, tookB] = await Promise.all([
      within(1000, async () => learned(a.app)),
      within(1000, async () => learned(b.app)),
    ]);
    expect({ tookA: tookA !== null, tookB: tookB !== null }).toEqual({ tookA: true, tookB: true });
  }, 120_000);

  it('the recompute job started on both instances runs once; its progress is visible from both', async () => {
    let runs = 0;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    for (const app of [a.app, b.app]) {
      app.recompute.addStep({
        name: 'cluster probe',
        order: 1000,
        run: async (_version, progress) => {
          runs++;
          progress(1, 2);
          await gate;
          progress(2, 2);
        },
      });
    }
    const started = await Promise.all([a.app.recompute.start(['33']), b.app.recompute.start(['33'])]);
    expect(started.filter(Boolean)).toHaveLength(1);
    const [runner, other] = started[0] ? [a.app, b.app] : [b.app, a.app];
    // The other instance reads the runner's progress from the RecomputeStatus row.
    const seen = await within(3000, async () => {
      const st = await other.recompute.status();
      return st.running && st.step === 'cluster probe (33)' && st.done === 1 && st.total === 2;
    });
    expect(seen).not.toBeNull();
    expect(await other.recompute.start(['33'])).toBe(false); // still held by the runner
    open();
    await runner.recompute.wait();
    expect(runs).toBe(1);
    const after = await other.recompute.status();
    expect(after).toMatchObject({ running: false, error: null, step: 'cluster probe (33)', done: 2, total: 2 });
    expect(after.finishedAt).toBeInstanceOf(Date);
  });

  it('a definitions update through one instance while the job runs on the other: its start answers false, the runner goes again and the totals follow it', async () => {
    const chart = a.app.catalogue.find('Cluster Coherence', 'SP', 'ANOTHER')!;
    const player = await aPublicPlayer(a.db.prisma);
    await withBestScore(a.db.prisma, player, chart.id, 1600);
    let runs = 0;
    let open!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const atGate = new Promise<void>((r) => (reached = r));
    for (const app of [a.app, b.app]) {
      app.recompute.addStep({
        name: 'cluster gate',
        order: 1001,
        run: async () => {
          runs++;
          reached();
          await gate;
        },
      });
    }
    expect(await a.app.recompute.start(['33'])).toBe(true);
    await atGate; // A's run is past its totals
    const update = await updateDefinitions(b.app, vintage('cluster-3', 1700, 1500));
    expect(update).toMatchObject({ report: { changed: 1 }, recomputeStarted: false });
    open();
    await a.app.recompute.wait();
    expect(runs).toBe(2);
    expect(a.app.recompute.state).toMatchObject({ running: false, error: null });
    // the stored total is the one a recompute under cluster-3 stores
    const total = async () =>
      (
        await a.db.prisma.playerVersionStatus.findUniqueOrThrow({
          where: { userId_version: { userId: player.id, version: '33' } },
        })
      ).totalBpi;
    const stored = await total();
    expect(a.app.catalogue.definitionsVersion).toBe('cluster-3');
    await recomputeAll(a.db.prisma, a.app.catalogue, '33');
    expect(await total()).toBe(stored);
  });

  it('a subscription event published on instance A reaches a client of instance B (LISTEN/NOTIFY)', async () => {
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
    await within(5000, async () => b.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id) === 1);
    expect(b.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(1);
    expectNoErrors(
      await a.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: me.id }, await a.tokenFor(fan.id)),
    );
    expect((await received).data.notificationAdded).toEqual({ type: 'NEW_FOLLOWER', actorId: fan.id });
    expect(a.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(0); // it crossed through PostgreSQL, not A's memory
  });
});
