import 'reflect-metadata';
import { runCli } from './main';

// The admin CLI's entry point: `npm run cli -- <command> [options]` (src/cli/main.ts).
void runCli(process.argv.slice(2)).then((code) => process.exit(code));
