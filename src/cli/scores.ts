import fs from 'node:fs';
import type { Config } from '../config';
import { AppError } from '../errors';
import { Catalogue } from '../modules/catalogue/catalogue';
import { loadTitleCorrections } from '../modules/scores/corrections';
import { importScoreExport } from '../modules/scores/import.service';
import { progressBar } from './progress';
import { UsageError, withDatabase } from './support';

const USAGE = 'usage: npm run cli -- scores import --user <id> --version <v> [--corrections <titles.json>] [--play-style SP|DP] <file>';

/** scores import: an export file (format detected) as one batch for a user — the use case of the importScoresCsv mutation. */
export async function importScoresCommand(args: string[], config: Config): Promise<number> {
  const opts: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--user' || a === '--version' || a === '--corrections' || a === '--play-style') {
      if (args[i + 1] === undefined) throw new UsageError(`${a} needs a value\n${USAGE}`);
      opts[a.slice(2)] = args[++i];
    } else if (a.startsWith('--')) throw new UsageError(`Unknown option ${a}\n${USAGE}`);
    else files.push(a);
  }
  if (!opts.user || !opts.version || files.length !== 1) throw new UsageError(USAGE);
  const playStyle = opts['play-style'] ?? 'SP';
  if (playStyle !== 'SP' && playStyle !== 'DP') throw new UsageError(`--play-style must be SP or DP (the style an official CSV was downloaded for)\n${USAGE}`);
  if (!fs.existsSync(files[0])) throw new UsageError(`No such file: ${files[0]}`);
  const corrections = loadTitleCorrections(opts.corrections ?? config.titleCorrectionsFile);
  const text = fs.readFileSync(files[0], 'utf8');
  return withDatabase(config, 'scores import', async (db) => {
    if (!(await db.prisma.user.findUnique({ where: { id: opts.user } }))) throw new UsageError(`No user ${opts.user}`);
    const catalogue = new Catalogue(db.prisma);
    await catalogue.load();
    const bar = progressBar('import');
    let r;
    try {
      r = await importScoreExport({ db: db.prisma, catalogue }, { userId: opts.user, version: opts.version, csv: text, playStyle }, { corrections, onProgress: bar.update });
    } catch (err) {
      // A file that does not parse or fit the version is the caller's mistake: a usage error naming the file.
      if (err instanceof AppError && err.code === 'BAD_USER_INPUT') throw new UsageError(`${files[0]}: ${err.message}`);
      throw err;
    } finally {
      bar.done();
    }
    console.log(r.upToDate ? `${r.message}.` : `Batch ${r.batchId}: ${r.updatedCount} plays stored (${r.bpiUpdatedCount} on BPI charts); total BPI ${r.previousTotalBpi} → ${r.newTotalBpi}`);
    console.log(`${r.format}: ${r.rowCount} rows, ${r.skipped} unplayed cells, ${r.learnedCharts} charts learned, ${r.notFound.length} not found, ${r.problems.length} problems`);
    for (const n of r.notFound.slice(0, 20)) console.log(`  not found (line ${n.line}): ${n.title} [${n.difficulty}]`);
    for (const p of r.problems.slice(0, 20)) console.log(`  ${p.severity} line ${p.line}${p.column ? ` (${p.column})` : ''}: ${p.reason}`);
    return 0;
  });
}
