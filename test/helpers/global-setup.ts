import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { slimDump, templateDump, templateDbName, withDatabase } from './template';

/**
 * Runs the committed migrations once through the real migration path (the WebAssembly schema
 * engine), then every test file clones that migrated database: PGlite from a dumped data dir,
 * PostgreSQL with CREATE DATABASE … TEMPLATE. A second template holds the demo catalogue too, so
 * the test servers that want it (the default) clone it instead of importing it each (~2 s a file).
 */
export default async function globalSetup(): Promise<void> {
  process.env.BPIGRAPH_TEST_RUN ??= `${process.pid}_${Date.now().toString(36)}`;
  const url = process.env.DATABASE_URL;
  // (loaded only when a template is built: a cached one needs none of them)
  const load = async () => ({
    ...(await import('../../src/db/client')),
    ...(await import('../../src/db/migrate')),
    ...(await import('../../src/db/seed')),
  });
  if (url) {
    const { openDatabase, applyMigrations, seedDemoCatalogue } = await load();
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
    // The dumps of the last run are reused while nothing they are made from changed (any file under
    // src/ or prisma/, the dependencies, or how they are built): a run then starts ~5 s sooner.
    const key = templateInputsHash();
    const cached = (seeded: boolean) =>
      path.join(os.tmpdir(), `bpigraph-test-template-cache-${key}${seeded ? '-seeded' : ''}.tar`);
    if (fs.existsSync(cached(false)) && fs.existsSync(cached(true))) {
      fs.copyFileSync(cached(false), templateDump());
      fs.copyFileSync(cached(true), templateDump(true));
      const now = new Date();
      for (const seeded of [false, true]) fs.utimesSync(cached(seeded), now, now);
      await makeTemplateDataDir(key);
      return;
    }
    const { openDatabase, applyMigrations, seedDemoCatalogue } = await load();
    const db = await openDatabase({ dataDir: 'memory://' });
    await applyMigrations(db.adapterFactory);
    const pg = (db.adapterFactory as unknown as { client: Parameters<typeof slimDump>[0] }).client;
    fs.writeFileSync(templateDump(), await slimDump(pg));
    await seedDemoCatalogue(db.prisma);
    fs.writeFileSync(templateDump(true), await slimDump(pg));
    await db.close();
    for (const seeded of [false, true]) {
      const tmp = `${cached(seeded)}.${process.pid}`;
      fs.copyFileSync(templateDump(seeded), tmp);
      fs.renameSync(tmp, cached(seeded)); // whole or absent, for a run starting beside this one
    }
    // the dumps of older sources: gone after a day unused
    for (const name of fs.readdirSync(os.tmpdir())) {
      const file = path.join(os.tmpdir(), name);
      if (/^bpigraph-test-(template|datadir)-cache-/.test(name) && Date.now() - fs.statSync(file).mtimeMs > 86_400_000)
        fs.rmSync(file, { recursive: true, force: true });
    }
    await makeTemplateDataDir(key);
  }
}

/**
 * A migrated, empty embedded data dir (DATA_DIR layout) made from the plain template dump, for the
 * tests that run the CLI or a server process on a data dir of their own (test/helpers/template.ts
 * `migratedDataDir`): a copy costs ~0.1 s where a new data dir costs PGlite's initdb and the
 * migrations (~6 s of CPU). Reused while its sources are unchanged, like the dumps.
 */
async function makeTemplateDataDir(key: string): Promise<void> {
  const dir = path.join(os.tmpdir(), `bpigraph-test-datadir-cache-${key}`);
  process.env.BPIGRAPH_TEST_DATADIR = dir;
  if (fs.existsSync(dir)) {
    const now = new Date();
    fs.utimesSync(dir, now, now);
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const tmp = `${dir}.${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const pg = new PGlite({
    dataDir: path.join(tmp, 'pglite'),
    loadDataDir: new Blob([fs.readFileSync(templateDump())]),
  });
  await pg.waitReady;
  await pg.query('CHECKPOINT');
  await pg.close();
  try {
    fs.renameSync(tmp, dir); // whole or absent, for a run starting beside this one
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // (that run made it first)
  }
}

/** A hash of what the PGlite templates are made from: every file under src/ and prisma/, package-lock.json and this code. */
function templateInputsHash(): string {
  const root = path.join(__dirname, '../..');
  const hash = crypto.createHash('sha256');
  const add = (rel: string) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) add(path.join(rel, name));
    } else {
      hash.update(`${rel}\0`).update(fs.readFileSync(abs)).update('\0');
    }
  };
  for (const rel of ['src', 'prisma', 'package-lock.json', 'test/helpers/global-setup.ts', 'test/helpers/template.ts'])
    add(rel);
  return hash.digest('hex').slice(0, 16);
}
