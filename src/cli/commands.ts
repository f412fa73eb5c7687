import fs from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config';
import { openDatabase } from '../db/client';
import { applyMigrations, createMigration, pendingSchemaSql } from '../db/migrate';
import { emitSchemaFile, printSdl, SCHEMA_FILE } from '../graphql/schema';
import { getSchema } from '../schema';
import { importArrangementScoresCommand } from './arrangement';
import { importAttributesCommand } from './attributes';
import { createUserCommand, deleteUserCommand, grantCommand, listUsersCommand, tokenCommand } from './users';
import { importArenaCommand, importDefinitionsCommand, recomputeCommand } from './definitions';
import { importRadarCategoriesCommand } from './radar';
import { importScoresCommand } from './scores';
import { fitBpiV2Command } from './bpi-v2';
import { listKeysCommand, rotateKeysCommand } from './keys';
import { PROVISIONAL_USAGE, provisionalCommand } from './provisional';
import { UsageError, withDatabase, type CliArgs } from './support';

export interface Command {
  name: string;
  usage: string;
  summary: string;
  /** parseArgs options (`--help` is added to every command). */
  options?: ParseArgsConfig['options'];
  run(args: CliArgs, config: Config): Promise<number>;
}

const json = { json: { type: 'boolean' } } as const;

export const COMMANDS: Command[] = [
  {
    name: 'db migrate',
    usage: 'db migrate',
    summary: 'Apply the committed migrations (also done at server start)',
    run: (_a, config) =>
      withDatabase(
        config,
        'db migrate',
        async (db) => {
          const applied = await applyMigrations(db.adapterFactory);
          console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
          return 0;
        },
        { migrate: false },
      ),
  },
  {
    name: 'db diff',
    usage: 'db diff <name>',
    summary: 'Write prisma/migrations/<timestamp>_<name>/migration.sql from the schema change',
    run: async ({ positionals: [name] }) => {
      if (!name) throw new UsageError('usage: npm run db:diff -- <name>');
      // Diffing needs no real database: an in-memory PGlite serves as the shadow.
      const db = await openDatabase({ dataDir: 'memory://' });
      try {
        const dir = await createMigration(db.adapterFactory, name);
        console.log(dir ? `Wrote ${dir}/migration.sql` : 'No schema change: nothing to write.');
        return 0;
      } finally {
        await db.close();
      }
    },
  },
  {
    name: 'db check',
    usage: 'db check',
    summary: 'Fail when prisma/schema.prisma and the committed migrations differ',
    run: async () => {
      const db = await openDatabase({ dataDir: 'memory://' });
      try {
        const sql = await pendingSchemaSql(db.adapterFactory);
        if (sql) {
          console.error(`Schema and migrations differ; run npm run db:diff -- <name>:\n${sql}`);
          return 1;
        }
        console.log('Migrations match the schema.');
        return 0;
      } finally {
        await db.close();
      }
    },
  },
  {
    name: 'schema emit',
    usage: 'schema emit',
    summary: 'Write schema.graphql (the committed contract) from the code-first schema',
    run: async () => {
      emitSchemaFile(await getSchema());
      console.log(`Wrote ${SCHEMA_FILE}`);
      return 0;
    },
  },
  {
    name: 'schema check',
    usage: 'schema check',
    summary: 'Fail when schema.graphql is stale',
    run: async () => {
      const sdl = printSdl(await getSchema());
      const onDisk = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
      if (sdl !== onDisk) {
        console.error('schema.graphql is stale: run npm run schema:emit');
        return 1;
      }
      console.log('schema.graphql is up to date.');
      return 0;
    },
  },
  {
    name: 'users create',
    usage: 'users create --name <name>',
    summary: 'Create a local user; prints its id and an API key (shown once)',
    options: { name: { type: 'string' } },
    run: (args, config) => createUserCommand(args, config),
  },
  {
    name: 'users list',
    usage: 'users list [--admins] [--limit <n>] [--json]',
    summary: 'List users (newest first): id, name, admin, badge',
    options: { admins: { type: 'boolean' }, limit: { type: 'string' }, ...json },
    run: (args, config) => listUsersCommand(args, config),
  },
  {
    name: 'users grant',
    usage: 'users grant --admin|--no-admin|--badge <role>|--no-badge <user>',
    summary:
      'Make a user admin (the admin GraphQL mutations need it) or give / take a badge; <user> is an id or a name',
    options: {
      admin: { type: 'boolean' },
      'no-admin': { type: 'boolean' },
      badge: { type: 'string' },
      'no-badge': { type: 'boolean' },
      description: { type: 'string' },
    },
    run: (args, config) => grantCommand(args, config),
  },
  {
    name: 'users delete',
    usage: 'users delete <user> --yes',
    summary: 'Delete a user and everything of theirs (scores, follows, notes, tokens); <user> is an id or a name',
    options: { yes: { type: 'boolean' } },
    run: (args, config) => deleteUserCommand(args, config),
  },
  {
    name: 'token',
    usage: 'token <user>',
    summary: 'Print an access token (Bearer) for a user (id or name)',
    run: (args, config) => tokenCommand(args, config),
  },
  {
    name: 'keys rotate',
    usage: 'keys rotate',
    summary:
      'PostgreSQL: a new access-token signing key; the previous one verifies until its tokens expire (docs/cluster-keys.md)',
    run: (args, config) => rotateKeysCommand(args, config),
  },
  {
    name: 'keys list',
    usage: 'keys list [--json]',
    summary: 'PostgreSQL: the signing keys in the database (ids and dates, never secrets)',
    options: json,
    run: (args, config) => listKeysCommand(args, config),
  },
  {
    name: 'catalogue provisional',
    usage: PROVISIONAL_USAGE,
    summary:
      'Charts learned from player exports, not public yet: list them, adopt them into the catalogue (scores kept) or purge them with their plays',
    options: { ...json, limit: { type: 'string' } },
    run: (args, config) => provisionalCommand(args, config),
  },
  {
    name: 'definitions import',
    usage: 'definitions import <file|url> [--json]',
    summary:
      'Import a published BPI definitions file (path or http(s) URL); the first real one removes the demo catalogue',
    options: json,
    run: (args, config) => importDefinitionsCommand(args, config),
  },
  {
    name: 'scores import',
    usage:
      'scores import --user <user> --version <v> [--corrections <titles.json>] [--play-style SP|DP] [--json] <file>',
    summary: 'Import a score export (official CSV, Reflux TSV, daken counter, result techo) as one batch',
    options: {
      user: { type: 'string' },
      version: { type: 'string' },
      corrections: { type: 'string' },
      'play-style': { type: 'string' },
      ...json,
    },
    run: (args, config) => importScoresCommand(args, config),
  },
  {
    name: 'charts import-attributes',
    usage: 'charts import-attributes <file|url> [--json]',
    summary:
      'Import chart attribute vectors [{title, difficulty, playStyle?, attributes:{name: number}}] for similar songs',
    options: json,
    run: (args, config) => importAttributesCommand(args, config),
  },
  {
    name: 'charts import-categories',
    usage: 'charts import-categories <file|url>',
    summary: 'Import radar categories [{title, difficulty, top}] into the SP charts',
    run: (args, config) => importRadarCategoriesCommand(args, config),
  },
  {
    name: 'tickets import-scores',
    usage: 'tickets import-scores <file|url>',
    summary:
      'Import precomputed lane-arrangement scores [{title, difficulty, playStyle?, scores:{pattern: number}}] for ticket advice',
    run: (args, config) => importArrangementScoresCommand(args, config),
  },
  {
    name: 'recompute',
    usage: 'recompute [--version <v>]',
    summary: 'Recompute derived values (bests’ BPI, totals, arena averages); re-runnable',
    options: { version: { type: 'string' } },
    run: (args, config) => recomputeCommand(args, config),
  },
  {
    name: 'bpi-v2 fit',
    usage: 'bpi-v2 fit [--version <v>] [--no-evaluate] [--min-players <n>] [--json]',
    summary:
      'Fit BPI V2 from the bests of a version (default: the latest) for the current definitions; stores the parameters and the quality; re-runnable',
    options: {
      version: { type: 'string' },
      'no-evaluate': { type: 'boolean' },
      'min-players': { type: 'string' },
      ...json,
    },
    run: (args, config) => fitBpiV2Command(args, config),
  },
  {
    name: 'arena import',
    usage: 'arena import <file> [--version <v>]',
    summary: 'Import an official arena ranking snapshot (JSON array of players)',
    options: { version: { type: 'string' } },
    run: (args, config) => importArenaCommand(args, config),
  },
];
