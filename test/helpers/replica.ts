import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './ports';

const exec = promisify(execFile);

/** The machine's PostgreSQL binaries (Debian layout); override with PG_BIN. */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const hasPgBinaries =
  fs.existsSync(path.join(PG_BIN, 'initdb')) && fs.existsSync(path.join(PG_BIN, 'pg_basebackup'));

/** Runs a PostgreSQL binary as the `postgres` OS user when we are root (the server refuses root). */
async function pg(bin: string, args: string[]): Promise<string> {
  const file = path.join(PG_BIN, bin);
  const asRoot = process.getuid?.() === 0;
  const { stdout } = asRoot
    ? await exec('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: '/tmp' })
    : await exec(file, args, { cwd: '/tmp' });
  return stdout;
}

export interface StreamingPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Pauses / resumes WAL replay on the replica (pg_wal_replay_pause / resume). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** SQL on the replica (to check what it shows). */
  queryReplica<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * A throw-away streaming pair on loopback, built from the machine's binaries: `initdb` a primary
 * (wal_level=replica, a replication-capable trust entry for 127.0.0.1) on a free port, `prepare`
 * its database (migrations, fixtures), then `pg_basebackup -R -X stream` a replica into a temp
 * dir and start it on another free port as a hot standby. The shared cluster on 5432 is not
 * touched (its pg_hba has no replication entry).
 */
export async function startStreamingPair(prepare: (primaryUrl: string) => Promise<void>): Promise<StreamingPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-replica-'));
  fs.chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) await exec('chown', ['postgres', dir]);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [p1, p2] = [await freePort(), await freePort()];
  const started: string[] = [];
  const stopAll = async () => {
    for (const d of started.reverse()) await pg('pg_ctl', ['stop', '-D', d, '-m', 'immediate', '-w']).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pg('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    const conf = [
      `port = ${p1}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 32MB',
      'max_connections = 60',
    ].join('\n');
    fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), `\n${conf}\n`); // appending keeps the file's owner
    await pg('pg_ctl', ['start', '-D', primaryDir, '-w', '-l', path.join(dir, 'primary.log')]);
    started.push(primaryDir);
    const primaryUrl = `postgresql://postgres@127.0.0.1:${p1}/bpigraph`;
    const admin = new Client({ connectionString: `postgresql://postgres@127.0.0.1:${p1}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE bpigraph');
    await admin.end();
    await prepare(primaryUrl);
    await pg('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(p1),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
      // an immediate checkpoint: the default (spread) one paces its writes over the checkpoint
      // interval and kept this file waiting ~105 s of its 110
      '--checkpoint=fast',
    ]);
    await pg('pg_ctl', ['start', '-D', replicaDir, '-w', '-o', `-p ${p2}`, '-l', path.join(dir, 'replica.log')]);
    started.push(replicaDir);
    const replicaUrl = `postgresql://postgres@127.0.0.1:${p2}/bpigraph`;
    const replica = new Client({ connectionString: replicaUrl });
    await replica.connect();
    const inRecovery = (await replica.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0].r;
    if (!inRecovery) throw new Error('the replica is not in recovery');
    return {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => {
        await replica.query('SELECT pg_wal_replay_pause()');
        // pausing takes effect at the next record: wait until it reports paused
        for (let i = 0; i < 200; i++) {
          const s = (await replica.query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s;
          if (s === 'paused') return;
          await new Promise((r) => setTimeout(r, 25));
        }
      },
      resumeReplay: async () => {
        await replica.query('SELECT pg_wal_replay_resume()');
      },
      queryReplica: async (sql, params) => (await replica.query(sql, params)).rows,
      stop: async () => {
        await replica.end().catch(() => {});
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
