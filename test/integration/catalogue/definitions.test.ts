import { startTestServer, type TestServer } from '../../helpers/server';
import { describeWithShared, readSharedJson, sharedFile } from '../../helpers/shared-data';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { normalizeDefinitions } from '../../../src/domain/definitions';

const OLD = 'data/definitions/definitions-20241114.json';
const NEW = 'data/definitions/definitions-202509156.json';

describeWithShared(OLD, 'definitions import (both real vintages, twice each)', () => {
  let s: TestServer;
  let oldDoc: any;
  let newDoc: any;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
    oldDoc = readSharedJson(sharedFile(OLD)!);
    newDoc = readSharedJson(sharedFile(NEW)!);
  });
  afterAll(() => s.close());

  it('imports 20241114 into an empty catalogue, normalising its quirks', async () => {
    const { report } = await updateDefinitions(s.app, oldDoc, undefined, { startRecompute: false });
    expect(report).toMatchObject({
      version: '20241114',
      added: 1950,
      changed: 0,
      unchanged: 0,
      removed: 0,
      absent: 0,
      duplicates: 1,
      problems: [],
    });
    expect(s.app.catalogue.size).toBe(1950);
    // numbers given as strings become numbers; -1 means unknown
    const viva = s.app.catalogue.find('!Viva!', 'DP', 'ANOTHER')!;
    expect(viva.definition).toMatchObject({ wr: 2390, kaidenAvg: 2191, notes: 1206 });
    expect(await s.db.prisma.song.count()).toBe(1185);
  });

  it('importing the same file again changes nothing', async () => {
    const before = await s.db.prisma.chartDefinition.count();
    const { report, recomputeStarted } = await updateDefinitions(s.app, oldDoc, undefined, { startRecompute: false });
    expect(report).toMatchObject({ added: 0, changed: 0, unchanged: 1950, removed: 0, absent: 0, changedChartIds: [] });
    expect(recomputeStarted).toBe(false);
    expect(await s.db.prisma.chartDefinition.count()).toBe(before);
  });

  it('imports 202509156 on top: added, changed, unchanged, removed and no-longer-listed charts', async () => {
    const { report } = await updateDefinitions(s.app, newDoc, undefined, { startRecompute: false });
    expect(report).toMatchObject({
      version: '202509156',
      added: 102,
      changed: 1068,
      unchanged: 833,
      removed: 5,
      absent: 49,
      duplicates: 1,
    });
    const removed = s.app.catalogue.find('Skreaming for Salvation', 'SP', 'ANOTHER')!;
    expect(removed.removedInVersion).toBe('32');
    const unknownWr = s.app.catalogue.find('VOLCANIC BIGBEAT', 'SP', 'ANOTHER')!;
    expect(unknownWr.definition).toMatchObject({ kaidenAvg: null, wr: 2878 });
    expect(await s.db.prisma.chartDefinition.count({ where: { isCurrent: true } })).toBe(2003);
  });

  it('keeps history: a changed chart has both definitions, the newest current', async () => {
    const norm = normalizeDefinitions(newDoc);
    const oldNorm = normalizeDefinitions(oldDoc);
    const oldBy = new Map(oldNorm.entries.map((e) => [`${e.title}|${e.playStyle}|${e.difficulty}`, e]));
    const changed = norm.entries.find((e) => {
      const o = oldBy.get(`${e.title}|${e.playStyle}|${e.difficulty}`);
      return o && (o.wr !== e.wr || o.kaidenAvg !== e.kaidenAvg);
    })!;
    const chart = s.app.catalogue.find(changed.title, changed.playStyle, changed.difficulty)!;
    const history = await s.db.prisma.chartDefinition.findMany({
      where: { chartId: chart.id },
      orderBy: { definitionsVersion: 'asc' },
    });
    expect(history.map((h) => [h.definitionsVersion, h.isCurrent])).toEqual([
      ['20241114', false],
      ['202509156', true],
    ]);
    expect(history[1]).toMatchObject({ wr: changed.wr, kaidenAvg: changed.kaidenAvg });
    // GraphQL shows the same history
    const res = await s.gql(
      `query($id: ID!) { chart(id: $id) { definition { definitionsVersion wr } definitionHistory { definitionsVersion isCurrent } } }`,
      { id: String(chart.id) },
    );
    expect(res.body.data.chart.definitionHistory).toEqual([
      { definitionsVersion: '20241114', isCurrent: false },
      { definitionsVersion: '202509156', isCurrent: true },
    ]);
    // a chart no longer listed keeps its history but has no current definition
    const newKeys = new Set(norm.entries.map((e) => `${e.title}|${e.playStyle}|${e.difficulty}`));
    const dropped = oldNorm.entries.find((e) => !newKeys.has(`${e.title}|${e.playStyle}|${e.difficulty}`))!;
    expect(s.app.catalogue.find(dropped.title, dropped.playStyle, dropped.difficulty)!.definition).toBeNull();
  });

  it('re-importing 202509156 changes nothing', async () => {
    const { report } = await updateDefinitions(s.app, newDoc, undefined, { startRecompute: false });
    expect(report).toMatchObject({ added: 0, changed: 0, unchanged: 2003, removed: 0, absent: 0 });
    const rel = await s.db.prisma.definitionsRelease.findUnique({ where: { version: '202509156' } });
    expect(rel).toMatchObject({ added: 102, changed: 1068, removed: 5 });
  });
});

describe('definitions import input errors', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
  });
  afterAll(() => s.close());

  it('refuses a document that is not in the published format, writing nothing', async () => {
    await expect(updateDefinitions(s.app, { nope: 1 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(updateDefinitions(s.app, { version: '', body: [] })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await s.db.prisma.definitionsRelease.count()).toBe(0);
  });

  it('reports bad entries and imports the good ones', async () => {
    const { report } = await updateDefinitions(
      s.app,
      {
        version: 't1',
        body: [
          {
            title: 'Good',
            difficulty: '4',
            wr: '3000',
            avg: 2600,
            notes: '1600',
            bpm: '150',
            difficultyLevel: '12',
            coef: '1.1',
          },
          { title: 'Bad code', difficulty: '99', wr: 1, avg: 1, notes: 1, difficultyLevel: '12' },
          { title: 'No notes', difficulty: '4', wr: 1, avg: 1, notes: 'x', difficultyLevel: '12' },
        ],
      },
      undefined,
      { startRecompute: false },
    );
    expect(report.added).toBe(1);
    expect(report.problems.map((p) => p.reason)).toEqual([
      expect.stringContaining('unknown difficulty code'),
      'notes must be a positive integer',
    ]);
    expect(s.app.catalogue.find('Good', 'SP', 'ANOTHER')!.definition).toMatchObject({
      wr: 3000,
      kaidenAvg: 2600,
      coef: 1.1,
      notes: 1600,
    });
  });

  it('the admin mutation imports and is refused to non-admins', async () => {
    const doc = JSON.stringify({
      version: 't2',
      body: [{ title: 'Via GraphQL', difficulty: '3', wr: 2000, avg: 1800, notes: 1100, difficultyLevel: '11' }],
    });
    const anon = await s.gql(`mutation($j: String!) { importDefinitions(json: $j) { added } }`, { j: doc });
    expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    const { aPlayer, anAdmin } = await import('../../helpers/factories');
    const user = await aPlayer(s.db.prisma);
    const denied = await s.gql(
      `mutation($j: String!) { importDefinitions(json: $j) { added } }`,
      { j: doc },
      await s.tokenFor(user.id),
    );
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const admin = await anAdmin(s.db.prisma);
    const ok = await s.gql(
      `mutation($j: String!) { importDefinitions(json: $j) { version added changed problems } }`,
      { j: doc },
      await s.tokenFor(admin.id),
    );
    expect(ok.body).toEqual({ data: { importDefinitions: { version: 't2', added: 1, changed: 0, problems: [] } } });
    const bad = await s.gql(
      `mutation($j: String!) { importDefinitions(json: $j) { added } }`,
      { j: '{not json' },
      await s.tokenFor(admin.id),
    );
    expect(bad.body.errors![0]).toMatchObject({
      message: 'json is not valid JSON',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    await s.app.recompute.wait();
  });
});
