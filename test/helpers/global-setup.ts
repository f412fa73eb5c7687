import fs from 'node:fs';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/client';
import { applyMigrations } from '../../src/db/migrate';
import { seedDemoCatalogue } from '../../src/db/seed';
import { templateDump, templateDbName, withDatabase } from './template';

/**
 * Runs the committed migrations once through the real migration path (the WebAssembly schema
 * engine), then every test file clones that migrated database: PGlite from a dumped data dir,
 * PostgreSQL with CREATE DATABASE … TEMPLATE. A second template holds the demo catalogue too, so
 * the test servers that want it (the default) clone it instead of importing it each (~2 s a file).
 */
export default async function globalSetup(): Promise<void> {
  process.env.BPIGRAPH_TEST_RUN ??= `${process.pid}_${Date.now().toString(36)}`;
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const tpl = templateDbName();
    const seeded = templateDbName(true);
    await admin.query(`DROP DATABASE IF EXISTS "${seeded}"`);
    await admin.query(`DROP DATABASE IF EXISTS "${tpl}"`);
    await admin.query(`CREATE DATABASE "${tpl}"`);
    const db = await openDatabase({ url: withDatabase(url, tpl), poolMax: 2 });
    await applyMigrations(db.adapterFactory);
    await db.close();
    await admin.query(`CREATE DATABASE "${seeded}" TEMPLATE "${tpl}"`);
    await admin.end();
    const demo = await openDatabase({ url: withDatabase(url, seeded), poolMax: 2 });
    await seedDemoCatalogue(demo.prisma);
    await demo.close();
  } else {
    const db = await openDatabase({ dataDir: 'memory://' });
    await applyMigrations(db.adapterFactory);
    const pg = (db.adapterFactory as unknown as { client: { dumpDataDir(c?: string): Promise<Blob> } }).client;
    fs.writeFileSync(templateDump(), Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
    await seedDemoCatalogue(db.prisma);
    fs.writeFileSync(templateDump(true), Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
    await db.close();
  }
}
