/**
 * `catalogue provisional list|adopt|purge` (docs/imports-provisional.md), in process on a fresh
 * embedded database: an export with two titles the catalogue lacks (no demo catalogue) learns two
 * provisional charts; the list shows them, adopt makes one public, purge deletes the other with its
 * play; a wrong id exits 2 and changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../../src/db/client';
import { cli as cliInProcess } from '../../helpers/cli';
import { OFFICIAL_HEADER } from '../../../src/domain/csv/official-writer';
import { migratedDataDir } from '../../helpers/template';

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];
const HEADER = OFFICIAL_HEADER;
/** One official-CSV row: the song's ANOTHER played (level 10, EX 1500), the other difficulties not. */
const line = (title: string) =>
  [
    '33 Sparkle Shower',
    title,
    'GENRE',
    'ARTIST',
    1,
    ...DIFFS.map((d) => (d === 'ANOTHER' ? '10,1500,0,0,5,CLEAR,A' : [0, 0, 0, 0, '---', 'NO PLAY', '---'].join(','))),
    '2025-06-01 21:30',
  ].join(',');

describe('CLI: catalogue provisional (embedded database)', () => {
  const dataDir = migratedDataDir('bpigraph-provisional-cli-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    JWT_SECRET: 'cli-test-secret-cli-test-secret-0123456789',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  };
  const cli = (...args: string[]) => cliInProcess(env, ...args);

  it('lists, adopts and purges provisional charts', async () => {
    const csv = path.join(dataDir, 'export.csv');
    fs.writeFileSync(csv, '\ufeff' + [HEADER, line('Cli Adopt'), line('Cli Purge')].join('\r\n') + '\r\n');
    const id = /user id: (\S+)/i.exec((await cli('users', 'create', '--name', 'ProvPlayer')).stdout)?.[1];
    await cli('scores', 'import', '--user', id!, '--version', '33', csv);

    const list = JSON.parse((await cli('catalogue', 'provisional', 'list', '--json')).stdout);
    expect(list.map((r: any) => [r.title, r.difficulty, r.level, r.holders]).sort()).toEqual([
      ['Cli Adopt', 'ANOTHER', 10, 1],
      ['Cli Purge', 'ANOTHER', 10, 1],
    ]);
    const idOf = (t: string) => String(list.find((r: any) => r.title === t).chartId);

    const wrong = await cli('catalogue', 'provisional', 'adopt', idOf('Cli Adopt'), '999999').catch((e) => e);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Not provisional charts: 999999');

    expect((await cli('catalogue', 'provisional', 'adopt', idOf('Cli Adopt'))).stdout).toContain(
      `Adopted 1 chart(s): ${idOf('Cli Adopt')}`,
    );
    expect((await cli('catalogue', 'provisional', 'purge', idOf('Cli Purge'))).stdout).toContain(
      `Purged 1 chart(s): ${idOf('Cli Purge')}`,
    );
    expect((await cli('catalogue', 'provisional', 'list')).stdout).toContain('No provisional chart.');

    const db = await openDatabase({ dataDir });
    try {
      // adopted: public, its play kept; purged: the chart, its play and its song gone
      expect(await db.prisma.song.findMany({ select: { title: true, provisional: true } })).toEqual([
        { title: 'Cli Adopt', provisional: false },
      ]);
      expect(await db.prisma.score.count()).toBe(1);
    } finally {
      await db.close();
    }
  }, 600_000);
});
