import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config';
import { DataDirLockedError } from '../db/lock';
import { COMMANDS, type Command } from './commands';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    'bpigraph admin commands — npm run cli -- <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'The embedded database (PGlite, DATA_DIR) can be opened by one process only: stop the server',
    'before running a command that needs the database, or set DATABASE_URL to use PostgreSQL.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(help());
    return 0;
  }
  // Longest matching command name (commands have one or two words).
  const match: Command | undefined =
    COMMANDS.find((c) => c.name === `${argv[0]} ${argv[1] ?? ''}`.trim()) ?? COMMANDS.find((c) => c.name === argv[0]);
  if (!match) {
    console.error(`Unknown command: ${argv.join(' ')}\n\n${help()}`);
    return 2;
  }
  const rest = argv.slice(match.name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`${match.usage}\n\n${match.summary}`);
    return 0;
  }
  const config = loadConfig();
  return match.run(rest, config);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError) console.error(err.message);
    else if (err?.name === 'UsageError') console.error(err.message);
    else console.error(err);
    process.exit(err?.name === 'UsageError' ? 2 : 1);
  },
);
