import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { getSchema } from '../../src/schema';
import {
  analyseOperation,
  containsNul,
  measureOperation,
  operationDepth,
  queryComplexity,
} from '../../src/graphql/limits';
import { loadConfig } from '../../src/config';

const depthOf = (q: string) => {
  const doc = parse(q);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return operationDepth(
    doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode,
    fragments,
  );
};

describe('query depth', () => {
  it('counts nested fields, expands fragments and inline fragments, leaves introspection to MaxIntrospectionDepthRule', () => {
    expect(depthOf('{ serverInfo { name } }')).toBe(2);
    expect(depthOf('{ songs { edges { node { charts { definition { notes } } } } } }')).toBe(6);
    expect(
      depthOf(
        '{ songs { edges { node { ...S } } } } fragment S on Song { charts { ... on Chart { song { title } } } }',
      ),
    ).toBe(6);
    expect(
      depthOf(
        '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } serverInfo { name } }',
      ),
    ).toBe(2);
  });

  it('never loops on a fragment cycle (a validation error reported elsewhere)', () => {
    expect(depthOf('{ songs { edges { node { ...A } } } } fragment A on Song { charts { song { ...A } } }')).toBe(5);
  });
});

describe('query cost', () => {
  it('is 1 per field, multiplies connection children by first (default 20), lists by their bound, counts introspection', async () => {
    const schema = await getSchema();
    const cost = (q: string, v?: Record<string, unknown>) => queryComplexity(schema, parse(q), v, undefined, 50);
    expect(cost('{ serverInfo { name } }')).toBe(2);
    const page = 'query($n: Int) { songs(first: $n) { edges { node { id title } } } }';
    // songs: 1 + first × (edges 1 + node 1 + id 1 + title 1)
    expect(cost(page, { n: 10 })).toBe(1 + 10 * 4);
    // a missing or unusable page size counts as the default / the largest page, never as 0
    expect(cost(page, {})).toBe(1 + 20 * 4);
    expect(cost(page, { n: 100000 })).toBe(1 + 100 * 4); // capped: pageSize() refuses it anyway
    expect(cost(page, { n: 'x' })).toBe(1 + 100 * 4);
    // a list without a page size: its children × its declared bound (Song.charts: 10)
    // songs(first: 2): 1 + 2 × (edges 1 + node 1 + charts (1 + 10 × (id 1 + level 1)))
    expect(cost('{ songs(first: 2) { edges { node { charts { id level } } } } }')).toBe(1 + 2 * (1 + 1 + (1 + 10 * 2)));
    // User.bestEver declares 100: user 1 + bestEver (1 + 100 × 2)
    expect(cost('{ user(id: "u") { bestEver(currentVersion: "33") { bestExScore bestVersion } } }')).toBe(
      1 + 1 + 100 * 2,
    );
    // …or the default list cost (here 50) when it declares none: batch 1 + scores (1 + 50 × (chartId 1))
    expect(cost('{ user(id: "u") { batch(id: "b") { scores { chartId } } } }')).toBe(1 + 1 + (1 + 50 * 1));
    // a limit on a field returning one object bounds the lists below it:
    // user 1 + recommended 1 + weapons 1 + data (1 + 5 × chartId 1)
    expect(cost('{ user(id: "u") { recommended(limit: 5) { weapons { data { chartId } } } } }')).toBe(
      1 + 1 + 1 + (1 + 5 * 1),
    );
    // __schema: a fixed 1000 plus its fields, 1 each (lists inside introspection are bounded by the schema)
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(1000 + (1 + 1 + (1 + 1)));
    // fragments are expanded: twice the same fragment costs twice
    expect(cost('{ a: serverInfo { ...F } b: serverInfo { ...F } } fragment F on ServerInfo { name version }')).toBe(
      2 * (1 + 2),
    );
  });
});

describe('aliases, uploads and root fields', () => {
  const measure = async (q: string) => {
    const schema = await getSchema();
    const doc = parse(q);
    return analyseOperation(
      schema,
      doc,
      doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode,
      {},
    );
  };
  it('counts aliases through fragments, in linear time even when fragments double at each level', async () => {
    // S0 has 1 alias; each Sk spreads S(k-1) twice and adds 1: the document is small, its expansion
    // 2^41 fields — a walk that expanded fragments would never end (the test would time out)
    const levels = 40;
    const chain = ['fragment S0 on ServerInfo { a: name }'];
    for (let k = 1; k <= levels; k++)
      chain.push(`fragment S${k} on ServerInfo { ...S${k - 1} b${k}: version ...S${k - 1} }`);
    const m = await measure(`{ serverInfo { ...S${levels} } } ${chain.join(' ')}`);
    // aliases(S0) = 1; aliases(Sk) = 2 × aliases(S(k-1)) + 1 = 2^(k+1) − 1 → 2^41 − 1
    expect(m.aliases).toBe(2 ** 41 - 1);
    // and the depth walk is linear too: serverInfo 1 + name/version 1
    expect(depthOf(`{ serverInfo { ...S${levels} } } ${chain.join(' ')}`)).toBe(2);
  });
  it('counts every mutation root field and the uploads among them', async () => {
    const m = await measure(
      'mutation { a: follow(userId: "1") { state } b: follow(userId: "2") { state } ...U } fragment U on Mutation { c: importScoresCsv(userId: "1", version: "33", csv: "") { rowCount } d: importScoresCsv(userId: "1", version: "33", csv: "") { rowCount } }',
    );
    expect(m.rootFields).toBe(4);
    expect(m.uploads).toBe(2);
    expect(m.aliases).toBe(4);
  });
});

describe('NUL detection', () => {
  it('finds NUL in nested variables only', () => {
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ a: [{ b: 'x' }], n: 1, z: null })).toBe(false);
  });
});

describe('the gate on a repeated document', () => {
  // A document that passed the static checks once (depth, cost…, no page-size variable) is not
  // walked again under the same limits; what its variables carry is still checked every time.
  it('checks NUL and string lengths of every request, and the static checks again under other limits', async () => {
    const schema = await getSchema();
    const limits = loadConfig({}).limits;
    const document = parse(
      'query Calc($t: String!) { bpiCalc(title: $t, difficulty: ANOTHER, exScore: 1) { bpi song { title } } }',
    );
    const operation = document.definitions[0] as OperationDefinitionNode;
    const rq = (t: string) => ({ schema, document, operation, operationName: 'Calc', variables: { t } });
    const first = measureOperation(limits, rq('Aurora Drive'));
    expect(measureOperation(limits, rq('Aurora Drive'))).toBe(first); // the cached verdict
    // maxStringLength + 1 characters: refused as on the first request.
    const long = 'x'.repeat(limits.maxStringLength + 1);
    expect(() => measureOperation(limits, rq(long))).toThrow(
      `Argument Query.bpiCalc.title is ${limits.maxStringLength + 1} characters long; the maximum is ${limits.maxStringLength}`,
    );
    expect(() => measureOperation(limits, rq('a\u0000b'))).toThrow('NUL');
    // Depth 3 (bpiCalc › song › title) under a maximum of 2: the walk runs again for other limits.
    expect(() => measureOperation({ ...limits, maxDepth: 2 }, rq('Aurora Drive'))).toThrow(
      'Query depth 3 exceeds the maximum of 2 (GRAPHQL_MAX_DEPTH)',
    );
  });
});
