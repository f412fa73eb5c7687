import type { Config } from '../config';
import { AuthService } from '../modules/auth/auth.service';
import { CredentialsService } from '../modules/auth/credentials.service';
import { UsageError, withDatabase } from './support';

/** Reads `--flag value` / `--flag=value` from argv. */
function flag(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return undefined;
}

/** `users create --name <name>`: a local user plus an API key (printed once). */
export async function createUserCommand(args: string[], config: Config): Promise<number> {
  const name = flag(args, 'name')?.trim();
  if (!name) throw new UsageError('usage: npm run cli -- users create --name <name>');
  if (name.length < 2 || name.length > 20) throw new UsageError('The name must be 2–20 characters');
  return withDatabase(config, 'users create', async (db) => {
    const clash = await db.prisma.user.findUnique({ where: { nameKey: name.toLowerCase() }, select: { id: true } });
    if (clash) throw new UsageError(`The name "${name}" is already taken (user ${clash.id})`);
    const user = await db.prisma.user.create({ data: { name, nameKey: name.toLowerCase() } });
    const { apiKey: key } = await new CredentialsService(db.prisma).issueApiKey(user.id);
    console.log(`user id: ${user.id}`);
    console.log(`API key: ${key}`);
    console.log('The API key is shown only now. Exchange it for an access token: POST /api/v1/token with header X-API-Key.');
    return 0;
  });
}

/** `token <userId>`: prints an access token for that user (signed with the configured key). */
export async function tokenCommand(args: string[], config: Config): Promise<number> {
  const userId = args.find((a) => !a.startsWith('--'));
  if (!userId) throw new UsageError('usage: npm run cli -- token <userId>');
  return withDatabase(config, 'token', async (db) => {
    const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new UsageError(`No user ${userId}`);
    const auth = await AuthService.create(config, db.prisma);
    const { token, expiresIn } = await auth.issueAccessToken(user.id);
    console.log(token);
    console.error(`(expires in ${expiresIn} s)`);
    return 0;
  });
}
