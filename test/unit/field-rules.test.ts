/**
 * The rule wrapper on object fields (src/graphql/rules-schema.ts applyRules), on a probe schema: an
 * entry's `deny` decides what a refused caller gets — null without an error ('null', the mask
 * of a private player in a list) or null with FORBIDDEN / UNAUTHENTICATED ('error', for fields
 * that must refuse loudly) — and PUBLIC or unlisted fields are left unwrapped.
 */
import { graphql, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import type { Context } from '../../src/graphql/context';
import { RULED, RULES } from '../../src/graphql/rules';
import { applyRules } from '../../src/graphql/rules-schema';

const owner = (_args: Record<string, unknown>, _ctx: Context, root: { id: string }) => root.id;

function probeSchema(): GraphQLSchema {
  const Probe = new GraphQLObjectType({
    name: 'Probe',
    fields: {
      id: { type: GraphQLString },
      masked: { type: GraphQLString, resolve: () => 'masked value' },
      loud: { type: GraphQLString, resolve: () => 'loud value' },
      plain: { type: GraphQLString },
    },
  });
  const Query = new GraphQLObjectType({
    name: 'Query',
    fields: { probe: { type: Probe, resolve: () => ({ id: 'u1', plain: 'plain value' }) } },
  });
  return applyRules(new GraphQLSchema({ query: Query }));
}

beforeAll(() => {
  RULES['Query.probe'] = { rule: 'PUBLIC' };
  RULES['Probe.masked'] = { rule: 'OWNER', deny: 'null', target: owner };
  RULES['Probe.loud'] = { rule: 'OWNER', deny: 'error', target: owner };
  RULES['Probe.plain'] = { rule: 'PUBLIC' };
});
afterAll(() => {
  for (const k of ['Query.probe', 'Probe.masked', 'Probe.loud', 'Probe.plain']) delete RULES[k];
});

const run = (schema: GraphQLSchema, viewerId: string | null) =>
  graphql({
    schema,
    source: '{ probe { id masked loud plain } }',
    contextValue: { viewer: viewerId ? { id: viewerId, isAdmin: false } : null },
  });

describe('object-field rules', () => {
  it('lets the owner read every field', async () => {
    const r = await run(probeSchema(), 'u1');
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ probe: { id: 'u1', masked: 'masked value', loud: 'loud value', plain: 'plain value' } });
  });

  it("masks a 'null' field without an error and refuses an 'error' field with FORBIDDEN (another user)", async () => {
    const r = await run(probeSchema(), 'u2');
    expect(r.data).toEqual({ probe: { id: 'u1', masked: null, loud: null, plain: 'plain value' } });
    expect(r.errors?.map((e) => [e.path?.join('.'), (e.originalError as { code?: string }).code])).toEqual([
      ['probe.loud', 'FORBIDDEN'],
    ]);
  });

  it("refuses an 'error' field with UNAUTHENTICATED when signed out", async () => {
    const r = await run(probeSchema(), null);
    expect(r.errors?.map((e) => [e.path?.join('.'), (e.originalError as { code?: string }).code])).toEqual([
      ['probe.loud', 'UNAUTHENTICATED'],
    ]);
  });

  it('wraps only the ruled fields (PUBLIC and unlisted ones keep their resolver: no cost on plain reads)', () => {
    const fields = (probeSchema().getType('Probe') as GraphQLObjectType).getFields();
    expect((fields.masked.resolve as unknown as Record<symbol, string>)[RULED]).toBe('Probe.masked');
    expect((fields.loud.resolve as unknown as Record<symbol, string>)[RULED]).toBe('Probe.loud');
    expect(fields.plain.resolve).toBeUndefined();
    expect(fields.id.resolve).toBeUndefined();
  });

  it('refuses at start-up an object-field entry that does not say what a refused caller gets', () => {
    RULES['Probe.masked'] = { rule: 'OWNER', target: owner };
    try {
      expect(() => probeSchema()).toThrow(/Probe\.masked: an object field must say what a refused caller gets/);
    } finally {
      RULES['Probe.masked'] = { rule: 'OWNER', deny: 'null', target: owner };
    }
  });
});
