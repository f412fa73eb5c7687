/**
 * Property-based robustness of GraphQL input validation (fast-check), generated from the live
 * schema: every root query and mutation gets random arguments (valid-typed, wrong-typed, missing,
 * NUL characters, huge numbers, real and unknown ids) as anonymous, a player or an admin.
 * Zero INTERNAL_SERVER_ERROR / HTTP 5xx, and no partial writes: a mutation that fails leaves every
 * table's row count as it was.
 */
import { FUZZ_RUNS } from '../../helpers/fuzz';
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { getSchema } from '../../../src/schema';
import { aPublicPlayer, anAdmin, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const RUNS = FUZZ_RUNS;
let s: TestServer;
let schema: GraphQLSchema;
let tokens: (string | undefined)[] = [];
let idPool: string[] = [];
let countSql = '';

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0' } });
  schema = await getSchema();
  const db = s.db.prisma;
  const [a, b, admin] = [await aPublicPlayer(db), await aPublicPlayer(db), await anAdmin(db)];
  await follows(db, b, a, { approved: true });
  tokens = [undefined, await s.tokenFor(a.id), await s.tokenFor(admin.id)];
  const charts = await db.chart.findMany({ take: 3, where: { level: 12 } });
  idPool = [
    a.id,
    b.id,
    admin.id,
    ...charts.map((c) => String(c.id)),
    ...charts.map((c) => String(c.songId)),
    '0',
    '-1',
    '999999999',
    'nope',
    '',
  ];
  const tables = await db.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
  );
  countSql = `SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t.table_name}")::int AS "${t.table_name}"`).join(', ')}`;
});
afterAll(() => s.close());

async function rowCounts(): Promise<Record<string, number>> {
  const [row] = await s.db.prisma.$queryRawUnsafe<Record<string, number>[]>(countSql);
  return row;
}

/** Waits until after-commit listeners of earlier writes are done (counts stable across 30 ms). */
async function settledCounts(): Promise<Record<string, number>> {
  let prev = await rowCounts();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 30));
    const next = await rowCounts();
    if (JSON.stringify(next) === JSON.stringify(prev)) return next;
    prev = next;
  }
  return prev;
}

const nasty = fc.constantFrom(
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'x'.repeat(5000),
  '../../etc/passwd',
  '\'; DROP TABLE "User"; --',
  '{"a":',
  '[]',
  '💥'.repeat(50),
  '\ud800',
  'null',
  'NaN',
);

/** A value for an input type: usually well-typed, sometimes null / wrong-typed / nasty. */
function valueFor(type: GraphQLInputType, argName: string, depth = 0): fc.Arbitrary<unknown> {
  const nonNull = isNonNullType(type);
  const inner = nonNull ? type.ofType : type;
  let typed: fc.Arbitrary<unknown>;
  if (isListType(inner)) {
    typed = depth > 2 ? fc.constant([]) : fc.array(valueFor(inner.ofType, argName, depth + 1), { maxLength: 4 });
  } else if (isEnumType(inner)) {
    typed = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...inner.getValues().map((v) => v.name)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    );
  } else if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    typed =
      depth > 2
        ? fc.constant({})
        : fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, f.name, depth + 1)])), {
            requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
          });
  } else if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Int':
        typed = fc.oneof(fc.integer({ min: -3, max: 5000 }), fc.constantFrom(0, 1, 100, 101, 2 ** 31 - 1, -(2 ** 31)));
        break;
      case 'Float':
        typed = fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
          fc.constantFrom(0, -1, 1e300),
        );
        break;
      case 'Boolean':
        typed = fc.boolean();
        break;
      case 'ID':
        typed = fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...idPool) },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
          { weight: 1, arbitrary: nasty },
        );
        break;
      case 'DateTimeISO':
        typed = fc.oneof(
          fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string({ maxLength: 10 }),
        );
        break;
      default: {
        const known = /userId|chartId|songId/.test(argName)
          ? fc.constantFrom(...idPool)
          : fc.constantFrom(
              '33',
              '32',
              'INF',
              'Verflucht',
              'https://example.com/cb',
              'http://localhost/cb',
              '[]',
              '{}',
            );
        typed = fc.oneof(
          { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
          { weight: 3, arbitrary: known },
          { weight: 2, arbitrary: nasty },
          { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
        );
      }
    }
  } else {
    typed = fc.constant(null);
  }
  // Wrong-typed or null values (variable coercion must refuse them cleanly).
  const wrong = fc.constantFrom<unknown>(null, 'str', 12, true, [1], { a: 1 });
  return fc.oneof({ weight: 12, arbitrary: typed }, { weight: 1, arbitrary: wrong });
}

function selectionFor(field: GraphQLField<unknown, unknown>): string {
  const t = getNamedType(field.type);
  return isObjectType(t) ? ' { __typename }' : '';
}

/** One generated request: an operation on one root field with variables for its arguments. */
function requestFor(kind: 'query' | 'mutation') {
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const fields = Object.values(root.getFields());
  return fc.constantFrom(...fields).chain((field) =>
    fc
      .tuple(
        fc.record(Object.fromEntries(field.args.map((a) => [a.name, valueFor(a.type, a.name)])), { requiredKeys: [] }),
        fc.constantFrom(...tokens.keys()),
      )
      .map(([variables, tokenIndex]) => {
        const decls = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${kind}${decls ? `(${decls})` : ''} { ${field.name}${args ? `(${args})` : ''}${selectionFor(field)} }`;
        return { field: field.name, query, variables: variables, tokenIndex };
      }),
  );
}

function internalErrors(res: { status: number; body: { errors?: any[] } }): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`HTTP ${res.status}`);
  for (const e of res.body.errors ?? [])
    if (!e.extensions?.code || e.extensions.code === 'INTERNAL_SERVER_ERROR')
      out.push(`${e.extensions?.code}: ${e.message}`);
  return out;
}

describe('GraphQL input validation under generated arguments (fast-check)', () => {
  it('queries: zero INTERNAL_SERVER_ERROR', async () => {
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requestFor('query'), async (r) => {
        const res = await s.gql(r.query, r.variables, tokens[r.tokenIndex]);
        const bad = internalErrors(res);
        if (bad.length) throw new Error(`${r.query} ${JSON.stringify(r.variables).slice(0, 300)} → ${bad.join('; ')}`);
        for (const e of res.body.errors ?? []) codes.set(e.extensions.code, (codes.get(e.extensions.code) ?? 0) + 1);
      }),
      { numRuns: RUNS },
    );
    expect(codes.get('BAD_USER_INPUT') ?? 0).toBeGreaterThan(0);
  });

  it('mutations: zero INTERNAL_SERVER_ERROR and no partial writes when they fail', async () => {
    let failed = 0;
    let succeeded = 0;
    // Counts are known exactly after a failure; after a success, wait for after-commit listeners.
    let known: Record<string, number> | null = null;
    await fc.assert(
      fc.asyncProperty(requestFor('mutation'), async (r) => {
        const before = known ?? (await settledCounts());
        known = null;
        const res = await s.gql(r.query, r.variables, tokens[r.tokenIndex]);
        const bad = internalErrors(res);
        if (bad.length) throw new Error(`${r.query} ${JSON.stringify(r.variables).slice(0, 300)} → ${bad.join('; ')}`);
        if (res.body.errors?.length) {
          failed++;
          const after = await rowCounts();
          known = after;
          const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
          if (changed.length) {
            throw new Error(
              `partial write by failed ${r.field} (${res.body.errors[0].extensions.code}): ${changed.map((t) => `${t} ${before[t]}→${after[t]}`).join(', ')}`,
            );
          }
        } else {
          succeeded++;
        }
      }),
      { numRuns: RUNS },
    );
    expect(failed).toBeGreaterThan(RUNS / 2);
    console.log(`[fuzz-graphql] mutations: ${failed} refused cleanly, ${succeeded} succeeded`);
  }, 240_000);
});
