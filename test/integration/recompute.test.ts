import { startTestServer, type TestServer } from '../helpers/server';
import { aPlayer, withBestScore } from '../helpers/factories';
import { demoDefinitions } from '../../src/db/seed';
import { updateDefinitions } from '../../src/modules/songs/definitions.service';
import { calcBpi, totalBpi } from '../../src/domain/bpi';

describe('recompute job after a definitions update', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('re-derives the bests’ BPI and the totals from the new definitions, and reports progress', async () => {
    const level12 = [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.level === 12 && c.definition);
    const target = level12[0];
    const player = await aPlayer(s.db.prisma);
    const ex = Math.floor(target.notes * 2 * 0.9);
    await withBestScore(s.db.prisma, player, target.id, ex, { bpi: calcBpi(ex, target.definition!) });

    // new release: the target chart's world record moves up
    const doc = demoDefinitions();
    doc.version = 'demo-2';
    const entry = doc.body.find((e) => e.title === target.title && e.difficulty === (target.difficulty === 'ANOTHER' ? '4' : target.difficulty === 'HYPER' ? '3' : '10'))!;
    entry.wr = Math.min(target.notes * 2, Number(entry.wr) + 40);
    const progress: string[] = [];
    const { report, recomputeStarted } = await updateDefinitions(s.app, doc);
    expect(report).toMatchObject({ changed: 1, unchanged: 115, added: 0 });
    expect(recomputeStarted).toBe(true);
    await s.app.recompute.wait();
    expect(s.app.recompute.state).toMatchObject({ running: false, error: null });
    expect(s.app.recompute.stepNames).toEqual(['bests and totals', 'arena averages']);

    const newDef = s.app.catalogue.chart(target.id)!.definition!;
    expect(newDef.wr).toBe(entry.wr);
    const best = await s.db.prisma.bestScore.findUniqueOrThrow({ where: { userId_version_chartId: { userId: player.id, version: '33', chartId: target.id } } });
    expect(best.bpi).toBe(calcBpi(ex, newDef));
    expect(best.bpi).not.toBe(calcBpi(ex, target.definition!));

    const status = await s.db.prisma.playerVersionStatus.findUniqueOrThrow({ where: { userId_version: { userId: player.id, version: '33' } } });
    const n = [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.level === 12 && c.definition && (c.releasedVersion ?? 0) <= 33).length;
    expect(status.totalBpi).toBe(totalBpi([best.bpi!], n));

    // re-runnable, with progress
    await s.app.recompute.run(['33'], (step, done, total) => progress.push(`${step}:${done}/${total}`));
    expect(progress).toContain('bests and totals (33):1/1');
    expect(progress).toContain('arena averages (33):1/1');
  });

  it('admin GraphQL: recompute and recomputeStatus', async () => {
    const { anAdmin } = await import('../helpers/factories');
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
});
