import fs from 'node:fs';
import { Client } from 'pg';
import { templateDump, withDatabase } from './template';

export default async function globalTeardown(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const run = process.env.BPIGRAPH_TEST_RUN;
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`bpigraph_%${run}%`]);
    for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    await admin.end();
    void withDatabase;
  } else {
    fs.rmSync(templateDump(), { force: true });
  }
}
