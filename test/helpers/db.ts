import fs from 'node:fs';
import { threadId } from 'node:worker_threads';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from '../../src/db/client';
import { leasePglite, poolEnabled } from './pglite-pool';
import { templateDump, templateDbName, withDatabase } from './template';

let counter = 0;

export const usingPostgres = Boolean(process.env.DATABASE_URL);

/**
 * A fresh, migrated database for one test file: an in-memory PGlite cloned from the migrated
 * template, or (with DATABASE_URL) a new PostgreSQL database created from the template;
 * `seeded`: from the template that also holds the demo catalogue.
 */
export async function openTestDatabase(
  opts: Pick<DatabaseOptions, 'onQuery'> & { seeded?: boolean } = {},
): Promise<DatabaseHandle> {
  const { seeded = false, ...dbOpts } = opts;
  const url = process.env.DATABASE_URL;
  if (url) {
    // (test files run in worker threads of one process: the thread id keeps their names apart)
    const name = `bpigraph_t_${process.env.BPIGRAPH_TEST_RUN}_${process.pid}_${threadId}_${counter++}`;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      // Cloning needs the template to itself: serialise clones across jest workers.
      await admin.query('SELECT pg_advisory_lock(727274)');
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDbName(seeded)}"`);
      await admin.query('SELECT pg_advisory_unlock(727274)');
    } finally {
      await admin.end();
    }
    const handle = await openDatabase({ url: withDatabase(url, name), poolMax: 5, ...dbOpts });
    const close = handle.close.bind(handle);
    handle.close = async () => {
      await close();
      const a = new Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    };
    return handle;
  }
  if (poolEnabled()) return openDatabase({ pglite: await leasePglite(seeded), ...dbOpts });
  const dump = fs.readFileSync(templateDump(seeded));
  return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([dump]), ...dbOpts });
}
