import fs from 'node:fs';
import type { Config } from '../config';
import { importDefinitions } from '../db/definitions';
import { applyMigrations } from '../db/migrate';
import { progressBar } from './progress';
import { UsageError, withDatabase } from './commands';

export async function readSource(src: string): Promise<string> {
  if (/^https?:\/\//.test(src)) {
    const res = await fetch(src);
    if (!res.ok) throw new Error(`GET ${src}: HTTP ${res.status}`);
    return res.text();
  }
  if (!fs.existsSync(src)) throw new UsageError(`No such file: ${src}`);
  return fs.readFileSync(src, 'utf8');
}

export async function importDefinitionsCommand([src]: string[], config: Config): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- definitions import <file|url>');
  const text = await readSource(src);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`${src} is not JSON`);
  }
  return withDatabase(config, 'definitions import', async (db) => {
    await applyMigrations(db.adapterFactory);
    const bar = progressBar('definitions');
    const report = await importDefinitions(db.prisma, doc, bar.update);
    bar.done();
    console.log(
      `Definitions ${report.version}: ${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ` +
        `${report.removed} removed, ${report.absent} absent, ${report.duplicates} duplicate entries`,
    );
    for (const p of report.problems.slice(0, 20)) console.log(`  entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`);
    return 0;
  });
}
