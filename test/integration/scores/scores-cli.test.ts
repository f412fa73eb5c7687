import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../../src/db/client';
import { aBestScoreRow } from '../../helpers/factories';
import { cli as cliInProcess } from '../../helpers/cli';
import { describeIf } from '../../helpers/skip';
import { migratedDataDir } from '../../helpers/template';

const SHARED = path.resolve(__dirname, '../../../../shared/data');
const DEFS = path.join(SHARED, 'definitions/definitions-202509156.json');
const SAMPLE = path.join(SHARED, 'eamusement/score-sample-pre-leggendaria.csv');
const CORRECTIONS = path.join(SHARED, 'eamusement/title-corrections.json');
const haveShared = [DEFS, SAMPLE, CORRECTIONS].every((f) => fs.existsSync(f));
const d = describeIf(haveShared, `${SHARED} not found (real data lives in ../shared)`);

d('CLI: scores import (embedded database)', () => {
  const dataDir = migratedDataDir('bpigraph-scores-cli-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // always the embedded database: never write into the PostgreSQL harness database
  const env = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    JWT_SECRET: 'cli-test-secret-cli-test-secret-0123456789',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  };
  const cli = (...args: string[]) => cliInProcess(env, ...args);
  const fail = (...args: string[]) =>
    cli(...args).then(
      () => null,
      (e) => e as { code: number; stderr: string },
    );

  it('imports the real sample for a user, reports not-found rows, and says so on a re-import', async () => {
    await cli('definitions', 'import', DEFS);
    const id = /user id: (\S+)/i.exec((await cli('users', 'create', '--name', 'CsvPlayer')).stdout)?.[1];
    expect(id).toBeDefined();
    const first = await cli('scores', 'import', '--user', id!, '--version', '27', '--corrections', CORRECTIONS, SAMPLE);
    const stored = Number(/(\d+) plays stored/.exec(first.stdout)?.[1]);
    expect(stored).toBeGreaterThan(20);
    // charts the definitions lack (e.g. 5.1.1. ANOTHER, level 10) are learned from the export: nothing is lost
    expect(first.stdout).toMatch(
      /official: \d+ rows, \d+ unplayed cells, [1-9]\d* charts learned, 0 not found, 0 problems/,
    );
    const again = await cli('scores', 'import', '--user', id!, '--version', '27', SAMPLE);
    expect(again.stdout).toContain('Already up to date');

    expect((await fail('scores', 'import', '--user', id!, SAMPLE))?.code).toBe(2);
    expect((await fail('scores', 'import', '--user', id!, '--version', 'INF', SAMPLE))?.stderr).toContain(
      'INF takes Reflux',
    );
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.prisma.score.count({ where: { userId: id! } })).toBe(stored);
      expect(await db.prisma.importBatch.count({ where: { userId: id! } })).toBe(1);
    } finally {
      await db.close();
    }
  }, 1_200_000); // several CLI processes (each loads the TypeScript sources): generous on a busy machine
  it('runs the import listeners before it exits: a follower it overtakes is notified (OVERTAKEN), learned charts are in the catalogue', async () => {
    // One SP ANOTHER ☆12 chart (1000 notes). Watcher follows Importer and has EX 1500 on it;
    // Importer had no best (−1 ≤ 1500) and imports EX 1700 > 1500: Watcher is overtaken, once.
    const defs = path.join(dataDir, 'overtake-defs.json');
    fs.writeFileSync(
      defs,
      JSON.stringify({
        version: '20990102',
        requireVersion: '0',
        body: [
          {
            title: 'Cli Overtake',
            difficulty: '4',
            wr: 1900,
            avg: 1600,
            notes: 1000,
            bpm: '150',
            textage: '33/x.html',
            difficultyLevel: '12',
            dpLevel: '0',
            coef: -1,
          },
        ],
      }),
    );
    await cli('definitions', 'import', defs);
    const importer = /user id: (\S+)/i.exec((await cli('users', 'create', '--name', 'Importer')).stdout)![1];
    const watcher = /user id: (\S+)/i.exec((await cli('users', 'create', '--name', 'Watcher')).stdout)![1];
    let chartId: number;
    {
      const db = await openDatabase({ dataDir });
      try {
        chartId = (
          await db.prisma.chart.findFirstOrThrow({
            where: { song: { title: 'Cli Overtake' }, difficulty: 'ANOTHER' },
            select: { id: true },
          })
        ).id;
        await db.prisma.follow.create({ data: { followerId: watcher, followingId: importer } });
        await aBestScoreRow(
          db.prisma,
          await db.prisma.user.findUniqueOrThrow({ where: { id: watcher } }),
          chartId,
          1500,
          { version: '33' },
        );
      } finally {
        await db.close();
      }
    }
    const header = fs
      .readFileSync(path.join(__dirname, '../../fixtures/official-current-layout.csv'), 'utf8')
      .split(/\r?\n/)[0];
    const none = '0,0,0,0,---,NO PLAY,---';
    const csv = [
      header,
      `33 Sparkle Shower,Cli Overtake,POP,Artist,3,${none},${none},${none},12,1700,700,300,5,HARD CLEAR,AA,${none},2025-01-02 03:04`,
      // not in the definitions: the export names its level, so the catalogue learns the chart
      `33 Sparkle Shower,Cli Learned,POP,Artist,1,${none},${none},10,1000,400,200,9,CLEAR,A,${none},${none},2025-01-02 03:05`,
    ].join('\n');
    const file = path.join(dataDir, 'overtake.csv');
    fs.writeFileSync(file, csv);
    const out = (await cli('scores', 'import', '--user', importer, '--version', '33', file)).stdout;
    expect(out).toMatch(/official: 2 rows, \d+ unplayed cells, 1 charts learned, 0 not found, 0 problems/);
    const db = await openDatabase({ dataDir });
    try {
      const notes = await db.prisma.notification.findMany({
        where: { recipientId: watcher },
        select: { type: true, actorId: true, chartId: true, data: true },
      });
      expect(notes).toEqual([
        { type: 'OVERTAKEN', actorId: importer, chartId, data: { actorExScore: 1700, myExScore: 1500 } },
      ]);
      expect(
        await db.prisma.chart.count({ where: { song: { title: 'Cli Learned' }, difficulty: 'HYPER', level: 10 } }),
      ).toBe(1);
    } finally {
      await db.close();
    }
  }, 1_200_000);
});
