import { expectNoErrors, type TestServer } from './server';

/** SQL statements (Prisma query events) run by one GraphQL request, and its data. */
export async function sqlFor<T = any>(
  s: TestServer,
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
): Promise<{ count: number; statements: string[]; data: T }> {
  s.sql.reset();
  const data = expectNoErrors<T>(await s.gql<T>(query, variables, token));
  return { count: s.sql.count, statements: [...s.sql.statements], data };
}

/**
 * Fails with both statement lists when a bigger fan-out runs more statements than a smaller one:
 * an N+1 shows up as a count that grows with the number of parents.
 */
export function expectSameSqlCount(
  small: { count: number; statements: string[] },
  big: { count: number; statements: string[] },
  label: string,
): void {
  if (small.count !== big.count) {
    const fmt = (x: { statements: string[] }) =>
      x.statements.map((q, i) => `  ${i + 1}. ${q.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n');
    throw new Error(
      `${label}: ${small.count} statements for the small fan-out, ${big.count} for the big one (N+1?)\nsmall:\n${fmt(small)}\nbig:\n${fmt(big)}`,
    );
  }
}
