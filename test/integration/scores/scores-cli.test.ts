import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../../src/db/client';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const SHARED = path.resolve(__dirname, '../../../../shared/data');
const DEFS = path.join(SHARED, 'definitions/definitions-202509156.json');
const SAMPLE = path.join(SHARED, 'eamusement/score-sample-pre-leggendaria.csv');
const CORRECTIONS = path.join(SHARED, 'eamusement/title-corrections.json');
const haveShared = [DEFS, SAMPLE, CORRECTIONS].every((f) => fs.existsSync(f));
if (!haveShared) console.warn(`[scores-cli.test] ${SHARED} not found: the CLI import test is skipped`);
const d = haveShared ? describe : describe.skip;

d('CLI: scores import (embedded database)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-scores-cli-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // always the embedded database: never write into the PostgreSQL harness database
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, JWT_SECRET: 'cli-test-secret-cli-test-secret-0123456789', SEED_DEMO: 'false', LOG_LEVEL: 'silent' };
  const cli = (...args: string[]) => run(process.execPath, ['-r', '@swc-node/register', 'src/cli/index.ts', ...args], { cwd: ROOT, env, timeout: 400_000 });
  const fail = (...args: string[]) => cli(...args).then(() => null, (e) => e as { code: number; stderr: string });

  it('imports the real sample for a user, reports not-found rows, and says so on a re-import', async () => {
    await cli('definitions', 'import', DEFS);
    const id = /user id: (\S+)/i.exec((await cli('users', 'create', '--name', 'CsvPlayer')).stdout)?.[1];
    expect(id).toBeDefined();
    const first = await cli('scores', 'import', '--user', id!, '--version', '27', '--corrections', CORRECTIONS, SAMPLE);
    const stored = Number(/(\d+) plays stored/.exec(first.stdout)?.[1]);
    expect(stored).toBeGreaterThan(20);
    // charts the definitions lack (e.g. 5.1.1. ANOTHER, level 10) are learned from the export: nothing is lost
    expect(first.stdout).toMatch(/official: \d+ rows, \d+ unplayed cells, [1-9]\d* charts learned, 0 not found, 0 problems/);
    const again = await cli('scores', 'import', '--user', id!, '--version', '27', SAMPLE);
    expect(again.stdout).toContain('Already up to date');

    expect((await fail('scores', 'import', '--user', id!, SAMPLE))?.code).toBe(2);
    expect((await fail('scores', 'import', '--user', id!, '--version', 'INF', SAMPLE))?.stderr).toContain('INF takes Reflux');
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.prisma.score.count({ where: { userId: id! } })).toBe(stored);
      expect(await db.prisma.importBatch.count({ where: { userId: id! } })).toBe(1);
    } finally {
      await db.close();
    }
  }, 1_200_000); // several CLI processes (each loads the TypeScript sources): generous on a busy machine
});
