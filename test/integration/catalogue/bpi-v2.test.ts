/**
 * BPI V2 fitted from this server's own bests (issue #19 part 2), end to end: a generated population
 * with KNOWN true parameters (src/domain/bpi-v2/generate.ts) stored as BestScore rows on the demo
 * catalogue's charts, the admin job run (CLI path and GraphQL mutation), the parameters recovered,
 * `bpi(model: V2)` served from them, V1 unchanged, null on an unfitted chart, the total under V2,
 * the fit's quality, and the admin-only mutation.
 */
import { startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer, anAdmin } from '../../helpers/factories';
import { calcBpi, totalBpi } from '../../../src/domain/bpi';
import { generatePopulation, type ChartInfo } from '../../../src/domain/bpi-v2';
import { BPI_V2_CACHE } from '../../../src/modules/catalogue/bpi-v2.job';
import type { CatalogueChart } from '../../../src/modules/catalogue/catalogue';
import { usingPostgres } from '../../helpers/db';
import { runCli, startInstance, within } from '../../helpers/cluster';
import { itIf } from '../../helpers/skip';

const PLAYERS = 240;
const CHARTS = 24;

describe('BPI V2: the fit job, storage and serving', () => {
  let s: TestServer;
  let charts: CatalogueChart[]; // the generated population's charts, index j = generated chart j
  let sparse: CatalogueChart; // 5 players: never fitted
  let userIds: string[];
  let pop: ReturnType<typeof generatePopulation>;

  beforeAll(async () => {
    s = await startTestServer();
    const withDef = [...s.app.catalogue.charts()]
      .filter((c) => c.definition && c.definition.kaidenAvg && c.definition.wr)
      .sort((a, b) => a.id - b.id);
    // SP ☆12 charts first (the V2 total's set), then others
    const sp12 = withDef.filter((c) => c.playStyle === 'SP' && c.level === 12 && (c.releasedVersion ?? 0) <= 33);
    charts = [...sp12, ...withDef.filter((c) => !sp12.includes(c))].slice(0, CHARTS);
    sparse = withDef.find((c) => !charts.includes(c))!;
    const defs: ChartInfo[] = charts.map((c) => ({
      notes: c.definition!.notes,
      kaidenAvg: c.definition!.kaidenAvg,
      wr: c.definition!.wr,
      coef: c.definition!.coef,
    }));
    // density 0.8 with the generator's selection (stronger players favour harder charts): ≈ 150–200 players per chart, ≈ 19 charts per player
    pop = generatePopulation({
      players: PLAYERS,
      charts: CHARTS,
      seed: 1919,
      definitions: defs,
      density: 0.8,
      outlierRate: 0.02,
    });
    const names = Array.from({ length: PLAYERS }, (_, i) => `v2player${i}`);
    await s.db.prisma.user.createMany({ data: names.map((name) => ({ name, nameKey: name, isPublic: true })) });
    const users = await s.db.prisma.user.findMany({ where: { name: { in: names } }, select: { id: true, name: true } });
    const byName = new Map(users.map((u) => [u.name, u.id]));
    userIds = names.map((n) => byName.get(n)!);
    const rows: {
      userId: string;
      version: string;
      chartId: number;
      exScore: number;
      exScoreId: number;
      playedAt: Date;
    }[] = [];
    const { rowPtr, chart, ex } = pop.matrix;
    for (let i = 0; i < PLAYERS; i++) {
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++)
        rows.push({
          userId: userIds[i],
          version: '33',
          chartId: charts[chart[k]].id,
          exScore: ex[k],
          exScoreId: 0,
          playedAt: new Date(),
        });
    }
    // the sparse chart: 5 players (fewer than the 30 a chart needs)
    for (let i = 0; i < 5; i++)
      rows.push({
        userId: userIds[i],
        version: '33',
        chartId: sparse.id,
        exScore: Math.floor(sparse.definition!.notes * 1.7),
        exScoreId: 0,
        playedAt: new Date(),
      });
    await s.db.prisma.bestScore.createMany({ data: rows });
  }, 120_000);
  afterAll(() => s.close());

  it('serves no V2 value before any fit', async () => {
    const res = await s.gql(
      `query($c: ID!) { chart(id: $c) { v1: bpi(exScore: 100) v2: bpi(exScore: 100, model: V2) } bpiV2Fit { runId } }`,
      { c: String(charts[0].id) },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.chart.v2).toBeNull();
    expect(res.body.data.chart.v1).toBe(calcBpi(100, charts[0].definition!));
    expect(res.body.data.bpiV2Fit).toBeNull();
  });

  it('the job fits the charts with ≥ 30 players, stores them per vintage in one run, and recovers the true parameters', async () => {
    // the fitted players: those with ≥ 10 bests on the fitted charts (every generated chart is fitted: ≥ 30 players each)
    const { rowPtr } = pop.matrix;
    let fittedPlayers = 0;
    for (let i = 0; i < PLAYERS; i++) if (rowPtr[i + 1] - rowPtr[i] >= 10) fittedPlayers++;
    expect(fittedPlayers).toBeGreaterThan(PLAYERS * 0.9);
    const phases: string[] = [];
    const run = await s.app.bpiV2.run({
      version: '33',
      onProgress: (p) => void (phases[phases.length - 1] !== p && phases.push(p)),
    });
    expect(run).toMatchObject({
      status: 'succeeded',
      progress: 1,
      definitionsVersion: s.app.catalogue.definitionsVersion,
      gameVersion: '33',
      charts: CHARTS,
      players: fittedPlayers,
      converged: true,
    });
    expect(run.bestsRead).toBe(pop.matrix.chart.length + 5);
    expect(phases).toEqual(['read', 'prepare', 'fit', 'anchor', 'evaluate', 'store']);
    const params = await s.db.prisma.bpiV2ChartParams.findMany({
      where: { definitionsVersion: run.definitionsVersion },
    });
    expect(params).toHaveLength(CHARTS);
    expect(params.every((p) => p.runId === run.id)).toBe(true);
    expect(params.some((p) => p.chartId === sparse.id)).toBe(false);
    // the announcement reached this process's catalogue
    expect(s.app.catalogue.bpiV2Charts).toBe(CHARTS);

    // Recovery, in the fit's normalisation (θ standardised over the fitted players: θ* = (θ − a)/b,
    // so the truth becomes mu* = mu + sigma·a, sigma* = sigma·b). Tolerances from the standard
    // errors: ≈ 170 players per chart, omega ≈ 0.19 t-units → SE(mu) ≈ 0.19/√170 ≈ 0.015 and
    // SE(sigma)/sigma ≈ omega/(sigma·s_θ·√170) ≈ 0.43/(0.8·13) ≈ 4 %; the mean absolute error of a
    // normal estimate is 0.8·SE (≈ 0.012, 3 %), plus the error of θ from ≈ 19 charts per player. Asserted:
    // mean |Δmu| < 0.04 t-units (≈ 2 BPI) and mean |Δsigma|/sigma < 8 %, every chart within 5 SE of mu.
    const { skill, mu, sigma } = pop.truth;
    const a = skill.reduce((x, y) => x + y, 0) / PLAYERS;
    const b = Math.sqrt(skill.reduce((x, y) => x + (y - a) ** 2, 0) / PLAYERS);
    let maeMu = 0;
    let maeSigma = 0;
    for (let j = 0; j < CHARTS; j++) {
      const p = params.find((r) => r.chartId === charts[j].id)!;
      const dMu = Math.abs(p.mu - (mu[j] + sigma[j] * a));
      maeMu += dMu / CHARTS;
      maeSigma += Math.abs(p.sigma / (sigma[j] * b) - 1) / CHARTS;
      expect(dMu).toBeLessThan(5 * p.seMu);
      expect(p.players).toBeGreaterThanOrEqual(30);
    }
    expect(maeMu).toBeLessThan(0.04);
    expect(maeSigma).toBeLessThan(0.08);
  }, 120_000);

  it('bpi(model: V2) is the model’s value; V1 stays the default; an unfitted chart answers null', async () => {
    // the first SP ☆12 chart and the median best on it (the ranking's first page holds 100 of its ≈ 170 players)
    const c = charts[0];
    const p = await s.db.prisma.bpiV2ChartParams.findFirstOrThrow({ where: { chartId: c.id } });
    const n = await s.db.prisma.bestScore.count({ where: { chartId: c.id, version: '33' } });
    const best = await s.db.prisma.bestScore.findFirstOrThrow({
      where: { chartId: c.id, version: '33' },
      orderBy: [{ exScore: 'desc' }, { userId: 'asc' }],
      skip: Math.min(50, n >> 1),
    });
    // By hand: m = 2·notes; t = −ln(m − s); z = (t − mu)/sigma; r = (z − z0)/(z100 − z0);
    // BPI = 100·sign(r)·|r|^gamma, rounded to 2 decimals, floored at −15.
    const m = c.definition!.notes * 2;
    const t = -Math.log(m - best.exScore);
    const z = (t - p.mu) / p.sigma;
    const r = (z - p.z0) / (p.z100 - p.z0);
    const byHand = Math.max(-15, Math.round(100 * Math.sign(r) * Math.abs(r) ** p.gamma * 100) / 100);
    const q = `query($u: ID!, $c: ID!, $sparse: ID!) {
      user(id: $u) { scores(version: "33", first: 100) { edges { node { chartId exScore bpi v1: bpi(model: V1) v2: bpi(model: V2) } } }
        chartRanks(version: "33") { chartId exScore bpi v2: bpi(model: V2) } }
      songRanking(chartId: $c, version: "33", first: 100) { edges { node { exScore bpi v2: bpi(model: V2) player { id: databaseId } } } }
      chart(id: $c) { bpi(exScore: ${best.exScore}, model: V2) }
      sparse: chart(id: $sparse) { v1: bpi(exScore: 10) v2: bpi(exScore: 10, model: V2) }
    }`;
    const res = await s.gql(q, { u: best.userId, c: String(c.id), sparse: String(sparse.id) });
    expect(res.body.errors).toBeUndefined();
    const d = res.body.data;
    const entry = d.user.scores.edges.map((e: any) => e.node).find((n: any) => n.chartId === c.id);
    expect(entry.exScore).toBe(best.exScore);
    expect(entry.v2).toBe(byHand);
    expect(entry.bpi).toBe(calcBpi(best.exScore, c.definition!)); // V1 default unchanged
    expect(entry.v1).toBe(entry.bpi);
    // the same best in the rivals area's ChartRank (one resolver for every score-shaped type)
    const rank = d.user.chartRanks.find((r: any) => Number(r.chartId) === c.id);
    expect(rank).toMatchObject({ exScore: best.exScore, bpi: entry.bpi, v2: byHand });
    const ranked = d.songRanking.edges.map((e: any) => e.node).find((n: any) => n.player?.id === best.userId);
    expect(ranked).toMatchObject({ exScore: best.exScore, bpi: entry.bpi, v2: byHand });
    expect(d.chart.bpi).toBe(byHand);
    // the sparse chart (5 players) has a V1 definition but no V2 parameters
    expect(d.sparse.v1).toBe(calcBpi(10, sparse.definition!));
    expect(d.sparse.v2).toBeNull();
  });

  it('hand-worked parameters reach every process through the bpiV2 cache, and exForBpi(model: V2) inverts them', async () => {
    // A chart with max EX m = 2·notes: mu = −ln 100 (a skill-0 player misses 100 EX), sigma = ln 2 / 2,
    // z0 = −0.5, z100 = 4.5, gamma = 1.
    //   s = m − 100: t = −ln 100 = mu → z = 0 → r = (0 + 0.5)/5 = 0.1 → BPI 10
    //   s = m − 50:  t = −ln 50 = mu + ln 2 → z = ln 2/(ln 2/2) = 2 → r = 2.5/5 = 0.5 → BPI 50
    //   s = m − 400: t = mu − 2 ln 2 → z = −4 → r = −3.5/5 = −0.7 → −70, floored at −15
    const c = charts[1];
    const m = 2 * c.definition!.notes;
    const vintage = s.app.catalogue.definitionsVersion!;
    await s.db.prisma.bpiV2ChartParams.update({
      where: { definitionsVersion_chartId: { definitionsVersion: vintage, chartId: c.id } },
      data: { mu: -Math.log(100), sigma: Math.LN2 / 2, z0: -0.5, z100: 4.5, gamma: 1 },
    });
    // the process learns of the write only through the announcement
    expect(s.app.catalogue.bpiV2Params(c.id)!.mu).not.toBe(-Math.log(100));
    await s.app.caches.changed(BPI_V2_CACHE);
    expect(s.app.catalogue.bpiV2Params(c.id)).toEqual({
      mu: -Math.log(100),
      sigma: Math.LN2 / 2,
      z0: -0.5,
      z100: 4.5,
      gamma: 1,
    });
    const res = await s.gql(
      `query($c: ID!) { chart(id: $c) { a: bpi(exScore: ${m - 100}, model: V2) b: bpi(exScore: ${m - 50}, model: V2) low: bpi(exScore: ${m - 400}, model: V2)
        x: exForBpi(bpi: 50, model: V2) { exScore bpi reachable } } }`,
      { c: String(c.id) },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.chart).toMatchObject({ a: 10, b: 50, low: -15 });
    // inverse: BPI 50 → z = −0.5 + 0.5·5 = 2 → t = mu + 2·sigma = −ln 50 → s = m − 50
    expect(res.body.data.chart.x).toEqual({ exScore: m - 50, bpi: 50, reachable: true });

    // a stored play (Play.bpi): V1 is the BPI stored at import, V2 its EX score's under the parameters (s = m − 50 → 50)
    const u = await aPlayer(s.db.prisma, { name: 'v2play' });
    const tok = await s.tokenFor(u.id);
    const imp = await s.gql(
      `mutation($rows: [ScoreRowInput!]!) { importScores(version: "33", rows: $rows) { bpiUpdatedCount } }`,
      { rows: [{ title: c.title, difficulty: c.difficulty, exScore: m - 50, clearState: 'CLEAR' }] },
      tok,
    );
    expect(imp.body.errors).toBeUndefined();
    const hist = await s.gql(
      `query($c: ID!) { me { chartHistory(chartId: $c) { exScore bpi v2: bpi(model: V2) } } }`,
      { c: String(c.id) },
      tok,
    );
    expect(hist.body.errors).toBeUndefined();
    expect(hist.body.data.me.chartHistory).toEqual([{ exScore: m - 50, bpi: calcBpi(m - 50, c.definition!), v2: 50 }]);
    // the same best as the viewer's side of a rivalry (RivalSide.bpi): V1 current definition, V2 50
    const riv = await s.gql(
      `query($r: ID!, $c: ID!) { user(id: $r) { rivalry(version: "33") { chart(chartId: $c) { mine { exScore bpi v2: bpi(model: V2) } } } } }`,
      { r: userIds[0], c: String(c.id) },
      tok,
    );
    expect(riv.body.errors).toBeUndefined();
    expect(riv.body.data.user.rivalry.chart.mine).toEqual({
      exScore: m - 50,
      bpi: calcBpi(m - 50, c.definition!),
      v2: 50,
    });
  });

  it('totalBpi(model: V2) is the V1 total formula over the fitted SP ☆12 charts; V1 is the stored total’s formula', async () => {
    const u = userIds[0];
    const res = await s.gql(
      `query($u: ID!) { user(id: $u) { v1: totalBpi(version: "33") v2: totalBpi(version: "33", model: V2)
        scores(version: "33", first: 100) { edges { node { chartId level bpi v2: bpi(model: V2) } } } } }`,
      { u },
    );
    expect(res.body.errors).toBeUndefined();
    const d = res.body.data.user;
    const sp12 = (id: number) => {
      const c = s.app.catalogue.chart(id)!;
      return c.playStyle === 'SP' && c.level === 12 && (c.releasedVersion ?? 0) <= 33;
    };
    const fittedSet = charts.filter((c) => sp12(c.id));
    expect(fittedSet.length).toBeGreaterThan(1);
    const v2s = d.scores.edges
      .map((e: any) => e.node)
      .filter((n: any) => fittedSet.some((c) => c.id === n.chartId))
      .map((n: any) => n.v2);
    expect(d.v2).toBe(totalBpi(v2s, fittedSet.length));
    const v1Set = [...s.app.catalogue.charts()].filter((c) => sp12(c.id) && c.definition);
    const v1s = d.scores.edges
      .map((e: any) => e.node)
      .filter((n: any) => v1Set.some((c) => c.id === n.chartId))
      .map((n: any) => n.bpi);
    expect(d.v1).toBe(totalBpi(v1s, v1Set.length));
  });

  it('the fit’s quality is public; the mutation and the status are admin-only; the mutation re-runs the job', async () => {
    const player = await aPlayer(s.db.prisma);
    const admin = await anAdmin(s.db.prisma);
    const q = await s.gql(
      `{ bpiV2Fit { runId definitionsVersion gameVersion status charts players z0 heldOutObservations heldOutRmseT v1Observations v2RmseTVsV1 v1RmseT bpiRmse bpiSpearman } }`,
    );
    expect(q.body.errors).toBeUndefined();
    const fit = q.body.data.bpiV2Fit;
    expect(fit).toMatchObject({
      definitionsVersion: s.app.catalogue.definitionsVersion,
      gameVersion: '33',
      status: 'succeeded',
      charts: CHARTS,
    });
    expect(fit.players).toBeGreaterThan(PLAYERS * 0.9);
    // 10 % held out (fold 0 of 10) of ≈ 4,000 bests: a few hundred predicted, V2 better than V1 on
    // a population generated from the V2 model
    expect(fit.heldOutObservations).toBeGreaterThan(200);
    expect(fit.v1Observations).toBeGreaterThan(0);
    expect(fit.v2RmseTVsV1).toBeLessThan(fit.v1RmseT);
    expect(fit.bpiSpearman).toBeGreaterThan(0.5);

    const mutation = `mutation { fitBpiV2(version: "33", evaluate: false) { started status { runId status } } }`;
    const anon = await s.gql(mutation);
    expect(anon.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const refused = await s.gql(mutation, {}, await s.tokenFor(player.id));
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const status = await s.gql(`{ bpiV2FitStatus { runId } }`, {}, await s.tokenFor(player.id));
    expect(status.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const bad = await s.gql(`mutation { fitBpiV2(minPlayersPerChart: 2) { started } }`, {}, await s.tokenFor(admin.id));
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const adminToken = await s.tokenFor(admin.id);
    const started = await s.gql(mutation, {}, adminToken);
    // the payload: started, and the new run as it stands right after the call
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data.fitBpiV2.started).toBe(true);
    expect(started.body.data.fitBpiV2.status.runId).toBe(fit.runId + 1);
    await s.app.bpiV2.wait();
    const after = await s.gql(
      `{ bpiV2FitStatus { runId status progress charts heldOutObservations } bpiV2Fit { runId } }`,
      {},
      adminToken,
    );
    expect(after.body.errors).toBeUndefined();
    expect(after.body.data.bpiV2FitStatus).toMatchObject({
      runId: fit.runId + 1,
      status: 'succeeded',
      progress: 1,
      charts: CHARTS,
      heldOutObservations: null,
    });
    expect(after.body.data.bpiV2Fit.runId).toBe(fit.runId + 1);
    // the re-run replaced the vintage's parameters (the hand-written ones above included)
    const params = await s.db.prisma.bpiV2ChartParams.findMany({
      where: { definitionsVersion: s.app.catalogue.definitionsVersion! },
    });
    expect(params).toHaveLength(CHARTS);
    expect(params.every((p) => p.runId === fit.runId + 1)).toBe(true);

    // a version without enough bests fails the run and keeps the vintage's parameters
    await expect(s.app.bpiV2.run({ version: '32' })).rejects.toThrow(
      /No chart has 30 fitted players among the bests of version 32 \(0 bests read\)/,
    );
    expect(await s.app.bpiV2.status()).toMatchObject({
      status: 'failed',
      gameVersion: '32',
      error: expect.stringContaining('nothing stored'),
    });
    expect(await s.db.prisma.bpiV2ChartParams.count({ where: { runId: fit.runId + 1 } })).toBe(CHARTS);
    expect(s.app.catalogue.bpiV2Charts).toBe(CHARTS);

    // one run at a time: a second start while the first runs answers false
    const both = await Promise.all([s.app.bpiV2.start({ evaluate: false }), s.app.bpiV2.start({ evaluate: false })]);
    expect(both).toEqual([true, false]);
    await s.app.bpiV2.wait();
    expect(await s.db.prisma.bpiV2FitRun.count({ where: { id: { gt: fit.runId + 2 } } })).toBe(1);
  }, 120_000);

  // PostgreSQL only (PGlite is one process): the CLI in its own process fits; both running
  // instances learn the new parameters through the `bpiV2` announcement on the cluster bus.
  itIf(usingPostgres, 'PostgreSQL only: the CLI and the servers share one database')(
    'the CLI command fits in another process and every instance learns the parameters within 1 s',
    async () => {
      const b = await startInstance(s.db);
      try {
        await s.app.bus.ready();
        const vintage = s.app.catalogue.definitionsVersion!;
        const c = charts[2];
        // a marker both instances must drop: hand-written parameters, announced
        await s.db.prisma.bpiV2ChartParams.update({
          where: { definitionsVersion_chartId: { definitionsVersion: vintage, chartId: c.id } },
          data: { mu: -99 },
        });
        await s.app.caches.changed(BPI_V2_CACHE);
        expect(await within(1000, async () => b.app.catalogue.bpiV2Params(c.id)?.mu === -99)).not.toBeNull();
        const before = await s.db.prisma.bpiV2FitRun.count();
        const cli = await runCli(['bpi-v2', 'fit', '--version', '33', '--no-evaluate'], s.db.url!);
        expect({ code: cli.code, out: cli.out }).toMatchObject({
          code: 0,
          out: expect.stringContaining(`${CHARTS} charts`),
        });
        expect(await s.db.prisma.bpiV2FitRun.count()).toBe(before + 1);
        const stored = await s.db.prisma.bpiV2ChartParams.findUniqueOrThrow({
          where: { definitionsVersion_chartId: { definitionsVersion: vintage, chartId: c.id } },
        });
        expect(stored.mu).not.toBe(-99);
        const tookA = await within(1000, async () => s.app.catalogue.bpiV2Params(c.id)?.mu === stored.mu);
        const tookB = await within(1000, async () => b.app.catalogue.bpiV2Params(c.id)?.mu === stored.mu);
        expect([tookA, tookB]).not.toContain(null);
      } finally {
        await b.close();
      }
    },
    120_000,
  );
});
