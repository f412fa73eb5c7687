import { ConfigError, loadConfig } from '../../src/config';
import { DataDirLockedError } from '../../src/db/lock';
import { startupErrorLine, type StartAttempt } from '../../src/server';

const AT: StartAttempt = { port: 4000, host: '0.0.0.0', dataDir: '/srv/bpigraph/data' };
const PG: StartAttempt = { ...AT, databaseUrl: 'postgresql://app:s3cret@db.internal:6543/bpi' };

function configError(env: Record<string, string>): unknown {
  try {
    loadConfig(env);
  } catch (err) {
    return err;
  }
  throw new Error('expected a ConfigError');
}

/** An error shaped as Node's net module throws it. */
function sysError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('start-up errors are one line with the fix', () => {
  it('a bad configuration names every bad variable on one line', () => {
    const err = configError({ PORT: 'eighty', GRAPHQL_MAX_DEPTH: '1' });
    expect(err).toBeInstanceOf(ConfigError);
    const line = startupErrorLine(err, AT);
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^invalid configuration: PORT: .*; GRAPHQL_MAX_DEPTH: .* — fix the variable named/);
  });

  it('production without PUBLIC_URL says what to set', () => {
    const line = startupErrorLine(configError({ NODE_ENV: 'production' }), AT);
    expect(line).toMatch(/^invalid configuration: PUBLIC_URL is required in production/);
    expect(line).not.toContain('\n');
  });

  it('a port in use names the port and the two ways out', () => {
    const line = startupErrorLine(sysError('EADDRINUSE', 'listen EADDRINUSE: address already in use 0.0.0.0:4000'), AT);
    expect(line).toBe(
      'port 4000 on 0.0.0.0 is already in use — stop the process listening there, or start with PORT=<a free port>',
    );
  });

  it('an unreachable PostgreSQL (Prisma schema engine wording, or a socket error in a cause) names host:port, never the password', () => {
    const prisma = new Error(
      "Can't reach database server at `db.internal:6543`\n\nPlease make sure your database server is running at `db.internal:6543`.\n",
    );
    const wrapped = new Error('connect failed', {
      cause: sysError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:6543'),
    });
    for (const err of [prisma, wrapped]) {
      const line = startupErrorLine(err, PG);
      expect(line).toBe(
        'cannot reach PostgreSQL at db.internal:6543 (DATABASE_URL) — start the database or fix DATABASE_URL; unset it to use the embedded database in DATA_DIR',
      );
      expect(line).not.toContain('s3cret');
    }
  });

  it('wrong credentials and a missing database are told apart', () => {
    const auth = Object.assign(new Error('password authentication failed for user "app"'), { code: '28P01' });
    expect(startupErrorLine(auth, PG)).toBe(
      'PostgreSQL at db.internal:6543 refused the user or password of DATABASE_URL — fix them in DATABASE_URL',
    );
    const missing = Object.assign(new Error('database "bpi" does not exist'), { code: '3D000' });
    expect(startupErrorLine(missing, PG)).toBe(
      'the database bpi does not exist on PostgreSQL at db.internal:6543 — create it (createdb bpi) or fix DATABASE_URL',
    );
  });

  it('the embedded database: a data dir held by another process, or not writable', () => {
    const locked = new DataDirLockedError(
      'The embedded database in /srv/bpigraph/data is in use by process 42 (bpigraph server). Stop it.',
    );
    expect(startupErrorLine(locked, AT)).toBe(locked.message);
    const denied = sysError('EACCES', "EACCES: permission denied, mkdir '/srv/bpigraph/data'");
    expect(startupErrorLine(denied, AT)).toBe(
      'cannot write the data directory /srv/bpigraph/data — make it writable by this user, or set DATA_DIR to a writable directory',
    );
  });

  it('anything else: its first line, and how to see the stack', () => {
    expect(startupErrorLine(new Error('boom\n    at somewhere (x.ts:1:1)'), AT)).toBe(
      'start-up failed: boom (DEBUG=1 prints the stack)',
    );
  });
});
