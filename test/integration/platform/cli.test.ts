import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { openDatabase } from '../../../src/db/client';
import { cli as cliInProcess } from '../../helpers/cli';
import { migratedDataDir } from '../../helpers/template';

/**
 * The admin CLI as an operator meets it (node:util.parseArgs; src/cli). Every command is a real
 * process on a throw-away embedded database; stderr is a pipe here, so progress comes as plain lines.
 * Timeouts are generous: each process loads the TypeScript sources on a shared, busy machine.
 */
describe('admin CLI', () => {
  const dataDir = migratedDataDir('bpigraph-cli-ops-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    JWT_SECRET: 'cli-test-secret-cli-test-secret-0123456789',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DEBUG: '',
  };
  const cli = (...args: string[]) => cliInProcess(env, ...args);
  const fail = (...args: string[]) =>
    cli(...args).then(
      (r) => ({ code: 0, stderr: r.stderr, stdout: r.stdout }),
      (e) => e as { code: number; stderr: string; stdout: string },
    );
  /** One line on stderr, `error: …`, no stack frames. */
  const oneLine = (stderr: string) => {
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    return stderr.trim();
  };
  const file = (name: string, content: unknown) => {
    const p = path.join(dataDir, name);
    fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
    return p;
  };

  it('errors are one clear line: wrong --version, a JSON that is not definitions, an unreachable URL, an unknown option', async () => {
    const badVersion = await fail('recompute', '--version', '99');
    expect(badVersion.code).toBe(2);
    expect(oneLine(badVersion.stderr)).toBe(
      "error: Unknown version '99': valid versions are 26, 27, 28, 29, 30, 31, 32, 33, 34, INF",
    );

    const notDefs = await fail('definitions', 'import', file('not-defs.json', { hello: 'world' }));
    expect(notDefs.code).toBe(2);
    expect(oneLine(notDefs.stderr)).toMatch(
      /^error: .*not-defs\.json is not a definitions document \(expected \{version, body: \[\.\.\.\]\}\)$/,
    );

    // a port nobody listens on: bind, note it, close
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const unreachable = await fail('definitions', 'import', `http://127.0.0.1:${port}/definitions.json`);
    expect(unreachable.code).toBe(2);
    expect(oneLine(unreachable.stderr)).toBe(
      `error: Cannot fetch http://127.0.0.1:${port}/definitions.json: connect ECONNREFUSED 127.0.0.1:${port}`,
    );

    const unknown = await fail('users', 'list', '--bogus');
    expect(unknown.code).toBe(2);
    expect(oneLine(unknown.stderr)).toBe(
      "error: Unknown option '--bogus' — usage: npm run cli -- users list [--admins] [--limit <n>] [--json]",
    );
  }, 1_800_000);

  it('definitions import: progress as plain lines when stderr is not a TTY, "and N more", --json', async () => {
    // 230 valid entries and 25 without a title (problems): progress fires at 200 and at the end
    // (230/230); 200/230 = 86 % → one line in the 80 % step, then 100 %.
    const good = Array.from({ length: 230 }, (_, i) => ({
      title: `Cli Song ${i}`,
      difficulty: '4',
      wr: 3000,
      avg: 2600,
      notes: 1600,
      bpm: '150',
      textage: '30/x.html',
      difficultyLevel: '12',
      dpLevel: '0',
      coef: -1,
    }));
    const bad = Array.from({ length: 25 }, () => ({ difficulty: '4', wr: 3000, avg: 2600, notes: 1600 }));
    const src = file('defs.json', { version: '20990101', requireVersion: '0', body: [...good, ...bad] });
    const text = await cli('definitions', 'import', src);
    expect(text.stderr).toContain('definitions: 86% (200/230)\ndefinitions: 100% (230/230)\n');
    expect(text.stdout).toContain(
      'Definitions 20990101: 230 added, 0 changed, 0 unchanged, 0 removed, 0 no longer listed, 0 duplicate entries, 25 problems',
    );
    // 20 problems listed, then the rest counted: 25 − 20 = 5
    expect(text.stdout.split('\n').filter((l) => /^ {2}entry \d+: missing title$/.test(l))).toHaveLength(20);
    expect(text.stdout).toContain('  … and 5 more (--json for the full report)');

    const again = await cli('definitions', 'import', src, '--json');
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({
      version: '20990101',
      added: 0,
      unchanged: 230,
      demoSongsPurged: 0,
      changedCharts: 0,
    });
    expect(report.problems).toHaveLength(25);
  }, 1_800_000);

  it('users grant / list / delete: admin and badge by name or id, deletion only with --yes', async () => {
    const created = await cli('users', 'create', '--name', 'OpsAdmin');
    const id = /user id: (\S+)/.exec(created.stdout)![1];

    expect((await cli('users', 'grant', '--admin', 'opsadmin')).stdout).toBe(`OpsAdmin (${id}) is now an admin.\n`);
    expect((await cli('users', 'grant', '--badge', 'pro', id)).stdout).toBe(`OpsAdmin (${id}) has the PRO badge.\n`);
    const badBadge = await fail('users', 'grant', '--badge', 'KING', id);
    expect(oneLine(badBadge.stderr)).toBe(
      "error: Unknown badge 'KING': valid badges are COFFEE, SABA, IIDX, DEVELOPER, PRO",
    );

    const listed = JSON.parse((await cli('users', 'list', '--json')).stdout);
    expect(listed).toEqual({
      total: 1,
      users: [{ id, name: 'OpsAdmin', admin: true, public: true, badge: 'PRO', createdAt: expect.any(String) }],
    });

    const refused = await fail('users', 'delete', 'OpsAdmin');
    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toContain('without --yes');

    // The deleteAccount mutation's own path: OpsAdmin upvoted another player's note (count 1); the
    // deletion writes the backup first and recomputes that count from the live upvotes (1 − 1 = 0).
    let noteId: number;
    {
      const db = await openDatabase({ dataDir });
      try {
        const author = await db.prisma.user.create({ data: { name: 'NoteAuthor', nameKey: 'noteauthor' } });
        const song = await db.prisma.song.create({ data: { title: 'Cli Delete Song' } });
        const chart = await db.prisma.chart.create({
          data: { songId: song.id, playStyle: 'SP', difficulty: 'ANOTHER', level: 12, notes: 1000 },
        });
        const note = await db.prisma.songNote.create({
          data: { chartId: chart.id, authorId: author.id, body: 'scratch on 2', upvoteCount: 1 },
        });
        await db.prisma.songNoteUpvote.create({ data: { noteId: note.id, userId: id } });
        noteId = note.id;
      } finally {
        await db.close();
      }
    }
    const deleted = (await cli('users', 'delete', 'OpsAdmin', '--yes')).stdout.split('\n');
    expect(deleted[0]).toBe(`Deleted OpsAdmin (${id}) with 0 plays and everything else of theirs.`);
    const backupFile = /^Backup: (.+)$/.exec(deleted[1])?.[1];
    expect(backupFile?.startsWith(path.join(dataDir, 'deleted-accounts', `${id}_`))).toBe(true);
    expect(JSON.parse(fs.readFileSync(backupFile!, 'utf8'))).toMatchObject({ user: { id, name: 'OpsAdmin' } });
    {
      const db = await openDatabase({ dataDir });
      try {
        expect(await db.prisma.songNote.findUnique({ where: { id: noteId }, select: { upvoteCount: true } })).toEqual({
          upvoteCount: 0,
        });
      } finally {
        await db.close();
      }
    }
    const refusedAgain = await fail('users', 'delete', id, '--yes');
    expect(oneLine(refusedAgain.stderr)).toBe(
      `error: No user '${id}' (neither an id nor a name): npm run cli -- users list`,
    );
  }, 1_800_000);
});
