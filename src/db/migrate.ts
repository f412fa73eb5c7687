import fs from 'node:fs';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PACKAGE_ROOT } from '../paths';

/**
 * Migrations through Prisma's own WebAssembly schema engine (@prisma/schema-engine-wasm):
 * no native engine download. The engine is an ES module whose .wasm import needs a flag in
 * plain Node, so we instantiate the .wasm ourselves and hand it to the JS glue.
 */
export const ROOT = PACKAGE_ROOT;
export const SCHEMA_PATH = path.join(ROOT, 'prisma/schema.prisma');
export const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');

const FILTERS = { externalTables: [] as string[], externalEnums: [] as string[] };

// A real dynamic import that no TypeScript/CommonJS transform rewrites into require(). The source is
// made unique per module instance: V8 caches the compiled function by its text, and a cached one keeps
// the import context of the first loader (under jest: a test file's environment, torn down later).
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- deliberate: import() that no transform rewrites
const importEsm = new Function('s', `return import(s) /* ${Date.now()}.${Math.random()} */`) as <T>(
  s: string,
) => Promise<T>;

type Engine = {
  applyMigrations(i: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(i: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};

/** The engine's JS glue (schema_engine_bg.js): the module the .wasm imports from, its wasm hook and the engine class. */
type EngineGlue = WebAssembly.ModuleImports & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
  SchemaEngine: { new: (...a: unknown[]) => Promise<Engine> };
};

async function loadEngineClass(): Promise<{ SchemaEngine: { new: (...a: unknown[]) => Promise<Engine> } }> {
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const bg = await importEsm<EngineGlue>(path.join(dir, 'schema_engine_bg.js'));
  if (!(loadEngineClass as { ready?: boolean }).ready) {
    const bytes = fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    (loadEngineClass as { ready?: boolean }).ready = true;
  }
  return bg;
}

async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  fn: (e: Engine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineClass();
  const schema = fs.readFileSync(SCHEMA_PATH, 'utf8');
  const logs: string[] = [];
  // Track the connections the engine opens so they are closed afterwards (the engine does not).
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => {
      const a = await adapterFactory.connect();
      opened.push(a);
      return a;
    },
    connectToShadowDb: async () => {
      const a = await adapterFactory.connectToShadowDb();
      opened.push(a);
      return a;
    },
  };
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    (msg: string) => logs.push(msg),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await fn(engine);
  } catch (err) {
    const e = err as Error;
    throw new Error(`schema engine: ${e.message ?? String(err)}${logs.length ? `\n${logs.slice(-5).join('\n')}` : ''}`);
  } finally {
    engine.free();
    await Promise.allSettled(opened.map((a) => a.dispose()));
  }
}

export function readMigrationsList(dir = MIGRATIONS_DIR) {
  const dirs = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: {
      path: 'migration_lock.toml',
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => {
      const file = path.join(dir, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(file)
            ? { tag: 'ok' as const, value: fs.readFileSync(file, 'utf8') }
            : { tag: 'error' as const, value: `missing ${file}` },
        },
      };
    }),
  };
}

/** Applies every committed migration not yet applied (idempotent; `_prisma_migrations` table). */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  return withEngine(adapterFactory, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: readMigrationsList(), filters: FILTERS });
    return out.appliedMigrationNames;
  });
}

/** SQL that takes the committed migrations to the current schema.prisma ('' when in sync). */
export async function pendingSchemaSql(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  return withEngine(adapterFactory, async (engine) => {
    const list = readMigrationsList();
    const from = list.migrationDirectories.length ? { tag: 'migrations', ...list } : { tag: 'empty' };
    const schema = fs.readFileSync(SCHEMA_PATH, 'utf8');
    const res = await engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    const sql = (res.stdout ?? '').trim();
    return sql === '-- This is an empty migration.' ? '' : sql;
  });
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema change; null when in sync. */
export async function createMigration(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('migration name: use lower-case letters, digits and _');
  const sql = await pendingSchemaSql(adapterFactory);
  if (!sql) return null;
  const ts = new Date()
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${ts}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'migration.sql'), sql + '\n');
  const lock = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  if (!fs.existsSync(lock))
    fs.writeFileSync(lock, '# Please do not edit this file manually\nprovider = "postgresql"\n');
  return dir;
}
