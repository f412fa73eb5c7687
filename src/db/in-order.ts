/**
 * `Promise.all` for the statements of one interactive transaction: awaits them one after the
 * other. A transaction is one connection; statements started together would queue inside pg
 * (deprecated, "client.query() when the client is already executing a query"). Prisma's query
 * promises are lazy — nothing runs until awaited — so passing them here runs them in order.
 */
export async function inOrder<T extends readonly unknown[]>(
  queries: readonly [...T],
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const out: unknown[] = [];
  for (const q of queries) out.push(await q);
  return out as { -readonly [K in keyof T]: Awaited<T[K]> };
}
