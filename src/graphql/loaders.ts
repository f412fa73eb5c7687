/**
 * DataLoader helpers for the areas' loaders (src/modules/<area>/<area>.loaders.ts). Loaders are
 * per request (ctx.loaders.<area>.<name>, built lazily per area) and never module-level; batch
 * functions return results in key order, `null` (or []) for misses.
 */
import DataLoader from 'dataloader';
import { dataloaderBatchSize } from '../metrics';

/**
 * A DataLoader whose keys are objects (`{ userId, version }`): `cacheKey` encodes a key into the
 * cache key, written once per loader; batch functions read the key objects' fields directly.
 */
export function keyedLoader<K extends object, V>(
  cacheKey: (key: K) => string,
  batch: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
): DataLoader<K, V, string> {
  const dl: DataLoader<K, V, string> = new DataLoader<K, V, string>(
    (keys) => {
      dataloaderBatchSize.observe({ loader: dl.name ?? 'unnamed' }, keys.length);
      return batch(keys);
    },
    { cacheKeyFn: cacheKey },
  );
  return dl;
}

/** A DataLoader with plain (string or number) keys. */
export function loader<K extends string | number, V>(
  batch: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
): DataLoader<K, V> {
  const dl: DataLoader<K, V> = new DataLoader<K, V>((keys) => {
    dataloaderBatchSize.observe({ loader: dl.name ?? 'unnamed' }, keys.length);
    return batch(keys);
  });
  return dl;
}

/** Rows grouped by a key, in input order. */
export function groupBy<K, V>(items: readonly V[], key: (v: V) => K): Map<K, V[]> {
  const m = new Map<K, V[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/** `keys.map(k => byKey.get(k) ?? miss)`: the batch answer in key order. */
export function inKeyOrder<K, V, M>(keys: readonly K[], byKey: ReadonlyMap<K, V>, miss: M): (V | M)[] {
  return keys.map((k) => (byKey.has(k) ? byKey.get(k)! : miss));
}

/**
 * The rows of a batch read per key, in key order: grouped by `cacheKey`, or — a batch of one key,
 * whose statement (`WHERE … IN (that key's values)`) read no other key's rows — the rows as they
 * are, without a key string built and hashed per row (a dashboard's thousands of plays).
 */
export function rowsPerKey<K, V extends K>(keys: readonly K[], rows: V[], cacheKey: (k: K) => string): V[][] {
  if (keys.length === 1) return [rows];
  const byKey = groupBy(rows, cacheKey);
  return keys.map((k) => byKey.get(cacheKey(k)) ?? []);
}
