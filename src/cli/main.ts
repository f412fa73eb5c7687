import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError } from '../db/lock';
import { DefinitionsFormatError } from '../domain/definitions';
import { AppError } from '../errors';
import { COMMANDS, type Command } from './commands';
import { UsageError } from './support';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    'bpigraph admin commands — npm run cli -- <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'The embedded database (PGlite, DATA_DIR) can be opened by one process only: stop the server',
    'before running a command that needs the database, or set DATABASE_URL to use PostgreSQL.',
    'Errors are one line on stderr (exit 2: wrong usage or input; 1: anything else; DEBUG=1 adds the stack).',
  ].join('\n');
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(help());
    return 0;
  }
  // Longest matching command name (commands have one or two words).
  const match: Command | undefined =
    COMMANDS.find((c) => c.name === `${argv[0]} ${argv[1] ?? ''}`.trim()) ?? COMMANDS.find((c) => c.name === argv[0]);
  if (!match)
    throw new UsageError(`Unknown command '${argv.slice(0, 2).join(' ')}' (npm run cli -- --help lists them)`);
  const rest = argv.slice(match.name.split(' ').length);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...match.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    // ERR_PARSE_ARGS_UNKNOWN_OPTION / _INVALID_OPTION_VALUE: node's message names the option.
    const message = (err as Error).message.split('\n')[0];
    const head =
      /^(Unknown option '[^']+'|Option '[^']+' argument missing|Unexpected argument '[^']+')/.exec(message)?.[1] ??
      message.replace(/\. .*$/, '');
    throw new UsageError(`${head} — usage: npm run cli -- ${match.usage}`);
  }
  if (parsed.values.help) {
    console.log(`${match.usage}\n\n${match.summary}`);
    return 0;
  }
  const config = loadConfig(env);
  return match.run(
    { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals },
    config,
  );
}

/** One line for any failure (never a stack trace unless DEBUG is set) and the exit code. */
function failure(err: unknown): { line: string; code: number } {
  const e = err as Error & { code?: string };
  if (err instanceof UsageError) return { line: e.message, code: 2 };
  if (err instanceof ConfigError) return { line: e.message, code: 2 };
  if (err instanceof DataDirLockedError) return { line: e.message, code: 1 };
  if (err instanceof DefinitionsFormatError) return { line: `Not a definitions document: ${e.message}`, code: 2 };
  if (err instanceof AppError)
    return { line: e.message, code: e.code === 'BAD_USER_INPUT' || e.code === 'NOT_FOUND' ? 2 : 1 };
  const cause = (e?.cause as Error | undefined)?.message;
  return { line: `Failed: ${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`, code: 1 };
}

/**
 * Runs one admin command as `npm run cli -- …` does, and answers its exit code: 0, 2 (wrong usage or
 * input) or 1 (anything else). Failures are one line on stderr (`error: …`; DEBUG adds the stack).
 * The entry point (index.ts) exits with the code; tests call this in process with their own env.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    return await main(argv, env);
  } catch (err) {
    const { line, code } = failure(err);
    console.error(`error: ${line.replace(/\s*\n\s*/g, ' ')}`);
    if (env.DEBUG) console.error(err);
    return code;
  }
}
