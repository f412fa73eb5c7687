import { startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer, withBestScore } from '../../helpers/factories';
import { demoDefinitions } from '../../../src/db/seed';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { calcBpi, totalBpi } from '../../../src/domain/bpi';
import { lockPlayer, recomputeAll } from '../../../src/modules/scores/totals.service';

describe('recompute job after a definitions update', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  /** What the API shows of one player's best on one chart (bests list, chart ranking) and of their total. */
  async function shown(playerId: string, chartId: number) {
    const res = await s.gql(
      `query($u: ID!, $c: ID!) {
        user(id: $u) { scores(version: "33", first: 100) { edges { node { chartId exScore bpi } } } stats { version totalBpi } }
        songRanking(chartId: $c, version: "33", first: 100) { edges { node { exScore bpi player { id: databaseId } } } } }`,
      { u: playerId, c: String(chartId) },
      await s.tokenFor(playerId),
    );
    expect(res.body.errors).toBeUndefined();
    const d = res.body.data;
    return {
      best: d.user.scores.edges.map((e: any) => e.node).find((n: any) => n.chartId === chartId)?.bpi,
      ranked: d.songRanking.edges.map((e: any) => e.node).find((n: any) => n.player?.id === playerId)?.bpi,
      total: d.user.stats.find((x: any) => x.version === '33')?.totalBpi ?? null,
    };
  }

  it('a best’s BPI follows a definitions update at once; the job re-derives the totals, with progress', async () => {
    const level12 = [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.level === 12 && c.definition);
    const target = level12[0];
    const player = await aPlayer(s.db.prisma);
    const ex = Math.floor(target.notes * 2 * 0.9);
    const oldDef = target.definition!;
    await withBestScore(s.db.prisma, player, target.id, ex, { bpi: calcBpi(ex, oldDef) });
    const n = [...s.app.catalogue.charts()].filter(
      (c) => c.playStyle === 'SP' && c.level === 12 && c.definition && (c.releasedVersion ?? 0) <= 33,
    ).length;
    await s.app.recompute.run(['33']);
    expect(await shown(player.id, target.id)).toEqual({
      best: calcBpi(ex, oldDef),
      ranked: calcBpi(ex, oldDef),
      total: totalBpi([calcBpi(ex, oldDef)!], n),
    });

    // new release: the target chart's world record moves up
    const doc = demoDefinitions();
    doc.version = 'demo-2';
    const entry = doc.body.find(
      (e) =>
        e.title === target.title &&
        e.difficulty === (target.difficulty === 'ANOTHER' ? '4' : target.difficulty === 'HYPER' ? '3' : '10'),
    )!;
    entry.wr = Math.min(target.notes * 2, Number(entry.wr) + 40);
    const progress: string[] = [];
    const { report, recomputeStarted } = await updateDefinitions(s.app, doc);
    expect(report).toMatchObject({ changed: 1, unchanged: 115, added: 0 });
    expect(recomputeStarted).toBe(true);
    await s.app.recompute.wait();
    expect(s.app.recompute.state).toMatchObject({ running: false, error: null });
    expect(s.app.recompute.stepNames).toEqual(['bests and totals', 'radar cache', 'arena averages']);

    const newDef = s.app.catalogue.chart(target.id)!.definition!;
    expect(newDef.wr).toBe(entry.wr);
    const bpi2 = calcBpi(ex, newDef)!;
    expect(bpi2).not.toBe(calcBpi(ex, oldDef));
    expect(await shown(player.id, target.id)).toEqual({ best: bpi2, ranked: bpi2, total: totalBpi([bpi2], n) });
    const status = await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
      where: { userId_version: { userId: player.id, version: '33' } },
    });
    expect(status).toMatchObject({ totalBpi: totalBpi([bpi2], n), playedCount: 1 });
    // the play keeps the BPI it was imported with
    expect((await s.db.prisma.score.findFirstOrThrow({ where: { userId: player.id } })).bpi).toBe(calcBpi(ex, oldDef));

    // another release, job not started yet: the best's BPI already follows (nothing stored), the
    // stored total follows when the job has run
    const doc3 = demoDefinitions();
    doc3.version = 'demo-3';
    const entry3 = doc3.body.find((e) => e.title === entry.title && e.difficulty === entry.difficulty)!;
    entry3.wr = entry.wr;
    entry3.avg = Number(entry3.avg) + 20;
    const third = await updateDefinitions(s.app, doc3, undefined, { startRecompute: false });
    expect(third).toMatchObject({ report: { changed: 1 }, recomputeStarted: false });
    const bpi3 = calcBpi(ex, s.app.catalogue.chart(target.id)!.definition!)!;
    expect(bpi3).toBeLessThan(bpi2);
    expect(await shown(player.id, target.id)).toEqual({ best: bpi3, ranked: bpi3, total: totalBpi([bpi2], n) });

    // re-runnable, with progress
    await s.app.recompute.run(['33'], (step, done, total) => progress.push(`${step}:${done}/${total}`));
    expect(progress).toContain('bests and totals (33):1/1');
    expect(progress).toContain('arena averages (33):1/1');
    expect(await shown(player.id, target.id)).toEqual({ best: bpi3, ranked: bpi3, total: totalBpi([bpi3], n) });
  });

  it('without versions, runs every version that has best scores (found in SQL)', async () => {
    const chart = [...s.app.catalogue.charts()].find(
      (c) =>
        c.playStyle === 'SP' && c.level === 12 && c.definition && (c.releasedVersion ?? 0) <= 30 && !c.removedInVersion,
    )!;
    const player = await aPlayer(s.db.prisma);
    for (const version of ['INF', '30']) await withBestScore(s.db.prisma, player, chart.id, chart.notes, { version });
    const steps = new Set<string>();
    await s.app.recompute.run(undefined, (step) => void steps.add(step));
    expect([...steps].filter((x) => x.startsWith('bests and totals')).sort()).toEqual([
      'bests and totals (30)',
      'bests and totals (33)',
      'bests and totals (INF)',
    ]);
    for (const version of ['INF', '30']) {
      const status = await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
        where: { userId_version: { userId: player.id, version } },
      });
      expect(status.playedCount).toBe(1);
    }
  });

  it('admin GraphQL: recompute and recomputeStatus', async () => {
    const { anAdmin } = await import('../../helpers/factories');
    const admin = await anAdmin(s.db.prisma);
    const token = await s.tokenFor(admin.id);
    const started = await s.gql('mutation { recompute(version: "33") }', {}, token);
    expect(started.body).toEqual({ data: { recompute: true } });
    await s.app.recompute.wait();
    const status = await s.gql('{ recomputeStatus { running done total error finishedAt } }', {}, token);
    expect(status.body.data.recomputeStatus).toMatchObject({ running: false, error: null, done: 1, total: 1 });
    const anon = await s.gql('{ recomputeStatus { running } }');
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('admin GraphQL: startRecompute returns a payload (started, the job right after the call)', async () => {
    const { anAdmin } = await import('../../helpers/factories');
    const token = await s.tokenFor((await anAdmin(s.db.prisma)).id);
    const START = 'mutation { startRecompute(version: "33") { started status { running error } } }';
    const first = await s.gql(START, {}, token);
    expect(first.body.data.startRecompute).toEqual({ started: true, status: { running: true, error: null } });
    await s.app.recompute.wait();
    // one version, one step unit: done 1 of 1 once finished (as recompute above)
    const status = await s.gql('{ recomputeStatus { running done total error } }', {}, token);
    expect(status.body.data.recomputeStatus).toEqual({ running: false, done: 1, total: 1, error: null });
    const anon = await s.gql(START);
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
  it('a batch waits for an import holding the player’s lock: the stored total includes that import’s best', async () => {
    const set = [...s.app.catalogue.charts()].filter(
      (c) => c.playStyle === 'SP' && c.level === 12 && c.definition && (c.releasedVersion ?? 0) <= 33,
    );
    const n = set.length;
    const [a, b] = set.slice(-2);
    const exA = Math.floor(a.notes * 2 * 0.85);
    const exB = Math.floor(b.notes * 2 * 0.95);
    const player = await aPlayer(s.db.prisma);
    await withBestScore(s.db.prisma, player, a.id, exA);
    await recomputeAll(s.db.prisma, s.app.catalogue, '33');
    let running: Promise<unknown> | undefined;
    // An import in progress: it holds the player's lock and writes a new best before it commits.
    await s.db.prisma.$transaction(
      async (tx) => {
        await lockPlayer(tx, player.id);
        await withBestScore(tx as unknown as typeof s.db.prisma, player, b.id, exB);
        running = recomputeAll(s.db.prisma, s.app.catalogue, '33');
        await new Promise((r) => setTimeout(r, 300));
      },
      { timeout: 10_000 },
    );
    await running;
    const status = await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
      where: { userId_version: { userId: player.id, version: '33' } },
    });
    const expected = totalBpi([s.app.catalogue.currentBpi(a.id, exA)!, s.app.catalogue.currentBpi(b.id, exB)!], n);
    expect(status.totalBpi).toBeCloseTo(expected, 10);
    expect(status.playedCount).toBe(2);
  });
  it('a definitions update while the job runs (past its totals step): the job runs again, the totals follow the last definitions', async () => {
    const set = [...s.app.catalogue.charts()].filter(
      (c) => c.playStyle === 'SP' && c.level === 12 && c.definition && (c.releasedVersion ?? 0) <= 33,
    );
    const n = set.length;
    // (a chart whose WR can move up by 40 below its maximum)
    const target = set.find((c) => (c.definition!.wr ?? Infinity) + 40 <= c.notes * 2)!;
    const ex = Math.floor(target.notes * 2 * 0.9);
    const player = await aPlayer(s.db.prisma);
    await withBestScore(s.db.prisma, player, target.id, ex);
    // a last step that holds the first run it meets in version 33 until the test opens it (the
    // totals of 33 are stored by then)
    let gate: { reached: () => void; open: Promise<void> } | null = null;
    s.app.recompute.addStep({
      name: 'test gate',
      order: 1000,
      run: async (version) => {
        if (version !== '33') return;
        const g = gate;
        gate = null;
        if (g) {
          g.reached();
          await g.open;
        }
      },
    });
    let reached!: () => void;
    let open!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    gate = { reached, open: new Promise<void>((r) => (open = r)) };

    const code = target.difficulty === 'ANOTHER' ? '4' : target.difficulty === 'HYPER' ? '3' : '10';
    // a demo release (a real one would purge the demo catalogue) with the target's WR moved up
    const release = (version: string, wrUp: number) => {
      const doc = demoDefinitions();
      doc.version = version;
      const e = doc.body.find((x) => x.title === target.title && x.difficulty === code)!;
      e.wr = Number(e.wr) + wrUp;
      return doc;
    };
    // the first update starts the job; it stores the totals under these definitions, then waits at the gate
    const first = await updateDefinitions(s.app, release('demo-overlap-1', 20));
    expect(first).toMatchObject({ report: { changed: 1 }, recomputeStarted: true });
    await atGate;
    const def1 = s.app.catalogue.chart(target.id)!.definition!;
    const status = () =>
      s.db.prisma.playerVersionStatus.findUniqueOrThrow({
        where: { userId_version: { userId: player.id, version: '33' } },
      });
    expect((await status()).totalBpi).toBeCloseTo(totalBpi([calcBpi(ex, def1)!], n), 10);

    // the second update meets the running job: nothing new starts now (false), the running one goes again
    const second = await updateDefinitions(s.app, release('demo-overlap-2', 40));
    expect(second).toMatchObject({ report: { changed: 1 }, recomputeStarted: false });
    const def2 = s.app.catalogue.chart(target.id)!.definition!;
    expect(def2.wr).toBe(def1.wr! + 20);
    open();
    await s.app.recompute.wait();
    expect(s.app.recompute.state).toMatchObject({ running: false, error: null });
    expect(calcBpi(ex, def2)).not.toBe(calcBpi(ex, def1));
    expect((await status()).totalBpi).toBeCloseTo(totalBpi([calcBpi(ex, def2)!], n), 10);
  });
});
