import type { Config } from '../config';
import { KEYS_CACHE, rotateAccessKey } from '../modules/auth/keys';
import { printJson, UsageError, withApp, withDatabase, type CliArgs } from './support';

/** Why keys cannot be rotated here, or null (PostgreSQL without JWT_SECRET: keys in the database). */
function notRotatable(config: Config): string | null {
  if (config.jwtSecret)
    return 'JWT_SECRET is set: tokens are signed with it. Rotate by changing JWT_SECRET in every process (tokens signed with the old one stop working).';
  if (!config.databaseUrl)
    return 'Keys live in the database on PostgreSQL only (DATABASE_URL). PGlite signs with DATA_DIR/jwt-secret: delete it and restart to replace it.';
  return null;
}

/**
 * `keys rotate`: a new current access-token key in the database; the previous one verifies until
 * its last tokens expire (ACCESS_TOKEN_TTL_SECONDS + grace). Announced on the cluster bus: every
 * running server reads the keys again (a server that missed it does so on the first unknown kid).
 */
export async function rotateKeysCommand(_args: CliArgs, config: Config): Promise<number> {
  const why = notRotatable(config);
  if (why) throw new UsageError(why);
  return withApp(config, 'keys rotate', async (app) => {
    const r = await rotateAccessKey(app.db, config.accessTokenTtl);
    await app.caches.changed(KEYS_CACHE);
    console.log(`current key: ${r.kid}`);
    for (const kid of r.retired) console.log(`retired (verifies for ${config.accessTokenTtl} s more): ${kid}`);
    return 0;
  });
}

/** `keys list [--json]`: the keys in the database (never their secrets), newest first. */
export async function listKeysCommand({ values }: CliArgs, config: Config): Promise<number> {
  const why = notRotatable(config);
  if (why) throw new UsageError(why);
  return withDatabase(config, 'keys list', async (db) => {
    const rows = await db.prisma.serverKey.findMany({
      orderBy: [{ createdAt: 'desc' }, { kid: 'asc' }],
      select: { kid: true, purpose: true, alg: true, createdAt: true, retiredAt: true, verifyUntil: true },
    });
    const now = Date.now();
    const live = rows.map((r) => ({ ...r, live: !r.verifyUntil || r.verifyUntil.getTime() > now }));
    if (values.json) printJson(live);
    else
      for (const r of live)
        console.log(
          `${r.kid}  ${r.purpose}  ${r.alg}  created ${r.createdAt.toISOString()}  ${r.retiredAt ? `retired ${r.retiredAt.toISOString()}` : 'current'}${r.live ? '' : '  (expired)'}`,
        );
    return 0;
  });
}
