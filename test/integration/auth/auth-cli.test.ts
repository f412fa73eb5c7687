import fs from 'node:fs';
import { jwtVerify } from 'jose';
import { openDatabase } from '../../../src/db/client';
import { hashSecret } from '../../../src/modules/auth/secrets';
import { cli as cliInProcess } from '../../helpers/cli';
import { migratedDataDir } from '../../helpers/template';

const SECRET = 'cli-test-secret-cli-test-secret-0123456789';

describe('CLI: users create / token (embedded database)', () => {
  const dataDir = migratedDataDir('bpigraph-cli-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    JWT_SECRET: SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
  };
  const cli = (...args: string[]) => cliInProcess(env, ...args);

  it('creates a user with an API key (stored hashed) and prints an access token for it', async () => {
    const created = await cli('users', 'create', '--name', 'CliPlayer');
    const id = /user id: (\S+)/.exec(created.stdout)?.[1];
    const key = /API key: (\S+)/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    expect(key).toMatch(/^bpk_/);

    const dup = await cli('users', 'create', '--name', 'cliplayer').then(
      () => null,
      (e) => e,
    );
    expect(dup?.code).toBe(2);
    expect(dup?.stderr).toContain('already taken');

    const { stdout } = await cli('token', id!);
    const { payload } = await jwtVerify(stdout.trim(), new TextEncoder().encode(SECRET), {
      issuer: 'bpigraph',
      audience: 'bpigraph-api',
    });
    expect(payload.sub).toBe(id);

    const db = await openDatabase({ dataDir });
    try {
      const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { userId: id! } });
      expect(row.keyHash).toBe(hashSecret(key!));
      expect((await db.prisma.user.findUniqueOrThrow({ where: { id: id! } })).name).toBe('CliPlayer');
    } finally {
      await db.close();
    }
  }, 1_200_000); // several CLI processes (each loads the TypeScript sources): generous on a busy machine
});
