import type { Config } from '../config';
import type { Db } from '../db/client';
import { BadgeRole } from '../generated/prisma/enums';
import { AuthService } from '../modules/auth/auth.service';
import { CredentialsService } from '../modules/auth/credentials.service';
import { deleteUserAccount } from '../modules/users/users.service';
import { printJson, UsageError, withApp, withDatabase } from './support';
import type { CliArgs } from './support';

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

/** A user by id or by name (case-insensitive); a usage error naming it when there is none. */
async function findUser(db: Db, ref: string | undefined, usage: string) {
  if (!ref) throw new UsageError(`usage: npm run cli -- ${usage}`);
  const select = {
    id: true,
    name: true,
    isAdmin: true,
    createdAt: true,
    badge: { select: { role: true, description: true } },
  } as const;
  const user =
    (await db.user.findUnique({ where: { id: ref }, select })) ??
    (await db.user.findUnique({ where: { nameKey: ref.toLowerCase() }, select }));
  if (!user) throw new UsageError(`No user '${ref}' (neither an id nor a name): npm run cli -- users list`);
  return user;
}

/** `users create --name <name>`: a local user plus an API key (printed once). */
export async function createUserCommand({ values }: CliArgs, config: Config): Promise<number> {
  const name = str(values.name)?.trim();
  if (!name) throw new UsageError('usage: npm run cli -- users create --name <name>');
  if (name.length < 2 || name.length > 20) throw new UsageError('The name must be 2–20 characters');
  return withDatabase(config, 'users create', async (db) => {
    const clash = await db.prisma.user.findUnique({ where: { nameKey: name.toLowerCase() }, select: { id: true } });
    if (clash) throw new UsageError(`The name "${name}" is already taken (user ${clash.id})`);
    const user = await db.prisma.user.create({ data: { name, nameKey: name.toLowerCase() } });
    const { apiKey: key } = await new CredentialsService(db.prisma).issueApiKey(user.id);
    console.log(`user id: ${user.id}`);
    console.log(`API key: ${key}`);
    console.log(
      'The API key is shown only now. Exchange it for an access token: POST /api/v1/token with header X-API-Key.',
    );
    return 0;
  });
}

/** `token <user>`: prints an access token for that user (signed with the configured key). */
export async function tokenCommand({ positionals }: CliArgs, config: Config): Promise<number> {
  return withDatabase(config, 'token', async (db) => {
    const user = await findUser(db.prisma, positionals[0], 'token <user>');
    const auth = await AuthService.create(config, db.prisma, { shared: db.kind === 'postgres' });
    const { token, expiresIn } = await auth.issueAccessToken(user.id);
    console.log(token);
    console.error(`(expires in ${expiresIn} s)`);
    return 0;
  });
}

/** `users list [--admins] [--limit n] [--json]`: newest first. */
export async function listUsersCommand({ values }: CliArgs, config: Config): Promise<number> {
  const limitRaw = str(values.limit) ?? '50';
  const limit = Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100000)
    throw new UsageError(`--limit must be an integer 1–100000 (got '${limitRaw}')`);
  return withDatabase(config, 'users list', async (db) => {
    const where = values.admins ? { isAdmin: true } : {};
    const [total, users] = await Promise.all([
      db.prisma.user.count({ where }),
      db.prisma.user.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        take: limit,
        select: {
          id: true,
          name: true,
          isAdmin: true,
          isPublic: true,
          createdAt: true,
          badge: { select: { role: true } },
        },
      }),
    ]);
    const rows = users.map((u) => ({
      id: u.id,
      name: u.name,
      admin: u.isAdmin,
      public: u.isPublic,
      badge: u.badge?.role ?? null,
      createdAt: u.createdAt.toISOString(),
    }));
    if (values.json) {
      printJson({ total, users: rows });
      return 0;
    }
    if (!total) {
      console.log(values.admins ? 'No admins.' : 'No users yet: npm run cli -- users create --name <name>');
      return 0;
    }
    const width = Math.max(4, ...rows.map((r) => r.name.length));
    console.log(`${'id'.padEnd(36)}  ${'name'.padEnd(width)}  admin  badge      created`);
    for (const r of rows)
      console.log(
        `${r.id.padEnd(36)}  ${r.name.padEnd(width)}  ${(r.admin ? 'yes' : '').padEnd(5)}  ${(r.badge ?? '').padEnd(9)}  ${r.createdAt.slice(0, 10)}`,
      );
    if (total > rows.length) console.log(`… and ${total - rows.length} more (--limit <n>, or --json)`);
    return 0;
  });
}

const BADGES = Object.values(BadgeRole) as string[];
const GRANT_USAGE = 'users grant --admin|--no-admin|--badge <role>|--no-badge [--description <text>] <user>';

/** `users grant`: admin on or off, a badge given or taken; one change per call. */
export async function grantCommand({ values, positionals }: CliArgs, config: Config): Promise<number> {
  const chosen = ['admin', 'no-admin', 'badge', 'no-badge'].filter((k) => values[k] !== undefined);
  if (chosen.length !== 1)
    throw new UsageError(
      `Say exactly one of --admin, --no-admin, --badge <role>, --no-badge — usage: npm run cli -- ${GRANT_USAGE}`,
    );
  const role = str(values.badge)?.toUpperCase();
  if (chosen[0] === 'badge' && !BADGES.includes(role ?? '')) {
    throw new UsageError(`Unknown badge '${str(values.badge)}': valid badges are ${BADGES.join(', ')}`);
  }
  if (positionals.length !== 1) throw new UsageError(`usage: npm run cli -- ${GRANT_USAGE}`);
  return withDatabase(config, 'users grant', async (db) => {
    const user = await findUser(db.prisma, positionals[0], GRANT_USAGE);
    switch (chosen[0]) {
      case 'admin':
      case 'no-admin': {
        const isAdmin = chosen[0] === 'admin';
        await db.prisma.user.update({ where: { id: user.id }, data: { isAdmin } });
        console.log(
          `${user.name} (${user.id}) is ${isAdmin ? 'now an admin' : 'no longer an admin'}${user.isAdmin === isAdmin ? ' (unchanged)' : ''}.`,
        );
        break;
      }
      case 'badge': {
        const description = str(values.description) ?? '';
        await db.prisma.userBadge.upsert({
          where: { userId: user.id },
          create: { userId: user.id, role: role as BadgeRole, description },
          update: { role: role as BadgeRole, description, grantedAt: new Date() },
        });
        console.log(`${user.name} (${user.id}) has the ${role} badge.`);
        break;
      }
      case 'no-badge': {
        const { count } = await db.prisma.userBadge.deleteMany({ where: { userId: user.id } });
        console.log(
          count
            ? `${user.name} (${user.id}) no longer has a badge (was ${user.badge?.role}).`
            : `${user.name} (${user.id}) had no badge.`,
        );
        break;
      }
    }
    return 0;
  });
}

/**
 * `users delete <user> --yes`: the user and everything of theirs, through the deleteAccount
 * mutation's own path — the JSON backup first (USER_DELETION_BACKUP_DIR; no backup, no deletion),
 * counters on other players' content recomputed, `users.deleted` for cached aggregates (arena
 * averages, chart popularity: announced to the running servers).
 */
export async function deleteUserCommand({ values, positionals }: CliArgs, config: Config): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('usage: npm run cli -- users delete <user> --yes');
  return withApp(config, 'users delete', async (app) => {
    const user = await findUser(app.db, positionals[0], 'users delete <user> --yes');
    const scores = await app.db.score.count({ where: { userId: user.id } });
    if (!values.yes) {
      throw new UsageError(
        `Refusing to delete ${user.name} (${user.id}, ${scores} plays) without --yes: it removes the user and all their data for good`,
      );
    }
    const { backupFile } = await deleteUserAccount(app, user.id);
    await app.events.settled();
    console.log(`Deleted ${user.name} (${user.id}) with ${scores} plays and everything else of theirs.`);
    console.log(`Backup: ${backupFile}`);
    return 0;
  });
}
