import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { getSchema } from '../../src/schema';
import { containsNul, operationDepth, queryComplexity } from '../../src/graphql/limits';

const depthOf = (q: string) => {
  const doc = parse(q);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return operationDepth(doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode, fragments);
};

describe('query depth', () => {
  it('counts nested fields, expands fragments and inline fragments, ignores introspection', () => {
    expect(depthOf('{ serverInfo { name } }')).toBe(2);
    expect(depthOf('{ songs { edges { node { charts { definition { notes } } } } } }')).toBe(6);
    expect(depthOf('{ songs { edges { node { ...S } } } } fragment S on Song { charts { ... on Chart { song { title } } } }')).toBe(6);
    expect(depthOf('{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } serverInfo { name } }')).toBe(2);
  });

  it('never loops on a fragment cycle (a validation error reported elsewhere)', () => {
    expect(depthOf('{ songs { edges { node { ...A } } } } fragment A on Song { charts { song { ...A } } }')).toBe(5);
  });
});

describe('query cost', () => {
  it('is 1 per field, multiplies connection children by first (default 20), introspection free', async () => {
    const schema = await getSchema();
    const cost = (q: string, v?: Record<string, unknown>) => queryComplexity(schema, parse(q), v);
    expect(cost('{ serverInfo { name } }')).toBe(2);
    const page = 'query($n: Int) { songs(first: $n) { edges { node { id title } } } }';
    // songs: 1 + first × (edges 1 + node 1 + id 1 + title 1)
    expect(cost(page, { n: 10 })).toBe(1 + 10 * 4);
    expect(cost(page, {})).toBe(1 + 20 * 4);
    expect(cost(page, { n: 100000 })).toBe(1 + 100 * 4); // capped: pageSize() refuses it anyway
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(0);
  });
});

describe('NUL detection', () => {
  it('finds NUL in nested variables only', () => {
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ a: [{ b: 'x' }], n: 1, z: null })).toBe(false);
  });
});
