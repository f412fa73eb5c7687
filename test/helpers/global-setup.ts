import fs from 'node:fs';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/client';
import { applyMigrations } from '../../src/db/migrate';
import { templateDump, templateDbName, withDatabase } from './template';

/**
 * Runs the committed migrations once through the real migration path (the WebAssembly schema
 * engine), then every test file clones that migrated database: PGlite from a dumped data dir,
 * PostgreSQL with CREATE DATABASE … TEMPLATE.
 */
export default async function globalSetup(): Promise<void> {
  process.env.BPIGRAPH_TEST_RUN ??= `${process.pid}_${Date.now().toString(36)}`;
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const tpl = templateDbName();
    await admin.query(`DROP DATABASE IF EXISTS "${tpl}"`);
    await admin.query(`CREATE DATABASE "${tpl}"`);
    await admin.end();
    const db = await openDatabase({ url: withDatabase(url, tpl), poolMax: 2 });
    await applyMigrations(db.adapterFactory);
    await db.close();
  } else {
    const db = await openDatabase({ dataDir: 'memory://' });
    await applyMigrations(db.adapterFactory);
    const pg = (db.adapterFactory as unknown as { client: { dumpDataDir(c?: string): Promise<Blob> } }).client;
    const blob = await pg.dumpDataDir('none');
    fs.writeFileSync(templateDump(), Buffer.from(await blob.arrayBuffer()));
    await db.close();
  }
}
