import { DEFINITIONS_LOCK_KEY, definitionsFingerprint, type DefinitionsFingerprint } from '../../db/definitions';
import type { Prisma } from '../../generated/prisma/client';

/**
 * Score writers (an import, a batch deletion) compute BPIs and totals from the in-memory
 * catalogue, then write in one transaction. A definitions import committed in between — by this
 * process, another one or the CLI — makes that snapshot stale: a replaced definition row is gone
 * (the plays' definitionId would violate its foreign key: INTERNAL) and the total would follow the
 * old values after the recompute has already passed the player (a lost update).
 *
 * So a writer takes the definitions lock SHARED inside its transaction (writers do not wait for
 * each other; a definitions import takes it EXCLUSIVE: src/db/definitions.ts) and checks under it
 * that its catalogue is the current one: the largest current definition id and the number of
 * charts with a current definition, in memory and in the database (every change of the
 * definitions creates rows with new, larger ids or retires some). When they differ the
 * transaction stops with `StaleCatalogueError` (nothing written), and `withCurrentCatalogue`
 * reloads the catalogue and runs the writer again from the start.
 */
export class StaleCatalogueError extends Error {
  constructor() {
    super('The catalogue changed during the write (definitions import): reloaded, run again');
  }
}

export interface DefinitionsSnapshot {
  charts(): Iterable<{ definition: { id: number } | null }>;
}

export interface ReloadableCatalogue extends DefinitionsSnapshot {
  /** absent (a fixed catalogue, as some tests pass): nothing is checked */
  load?(): Promise<void>;
}

export type { DefinitionsFingerprint };

/** The definitions a catalogue snapshot holds: the largest current definition id, the charts with one (as definitionsFingerprint of the database). */
export function fingerprint(cat: DefinitionsSnapshot): DefinitionsFingerprint {
  let top = 0;
  let n = 0;
  for (const c of cat.charts()) {
    if (!c.definition) continue;
    n++;
    if (c.definition.id > top) top = c.definition.id;
  }
  return { top, n };
}

/**
 * Outside the transaction, after work that let the event loop through (a sliced matching): the
 * catalogue still holds the definitions `seen` (null: not checked), else StaleCatalogueError.
 */
export function assertCurrentDefinitions(cat: DefinitionsSnapshot, seen: DefinitionsFingerprint | null): void {
  if (!seen) return;
  const now = fingerprint(cat);
  if (now.top !== seen.top || now.n !== seen.n) throw new StaleCatalogueError();
}

/**
 * In a writer's transaction: the definitions lock, shared; then StaleCatalogueError unless the
 * snapshot the writer took (`seen`) holds the current definitions (null: not checked).
 */
export async function lockCurrentDefinitions(
  tx: Prisma.TransactionClient,
  seen: DefinitionsFingerprint | null,
): Promise<void> {
  await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock_shared($1)) AS l', DEFINITIONS_LOCK_KEY);
  if (!seen) return;
  const db = await definitionsFingerprint(tx);
  if (db.top !== seen.top || db.n !== seen.n) throw new StaleCatalogueError();
}

/**
 * Runs `write` (one whole writer, catalogue reads included), handing it the fingerprint of the
 * catalogue as it is when `write` starts — `write` must read the catalogue before its first await,
 * since a reload swaps it (or check it again with assertCurrentDefinitions after letting the loop
 * through) — for lockCurrentDefinitions. After a StaleCatalogueError loads the
 * catalogue afresh (not a reload already under way: it may predate the change) and runs it again:
 * 3 attempts, the last one unchecked (a catalogue that cannot load: one, unchecked).
 */
export async function withCurrentCatalogue<T>(
  cat: ReloadableCatalogue,
  write: (seen: DefinitionsFingerprint | null) => Promise<T>,
): Promise<T> {
  const attempts = cat.load ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt < attempts ? fingerprint(cat) : null);
    } catch (err) {
      if (!(err instanceof StaleCatalogueError)) throw err;
      await cat.load!();
    }
  }
}
