import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, getOperationAST, parse, validate, type GraphQLSchema } from 'graphql';
import { ALL, ROOT, at, isShell, noRun } from '../helpers/markdown';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The doc test: every GraphQL document and JSON example of README.md and docs/**.md, extracted from
 * the Markdown, so a page cannot drift from the contract.
 *
 * - ```graphql: parsed and validated against schema.graphql; an operation without required
 *   variables (and not a subscription) is also executed on a test server (demo catalogue,
 *   anonymous caller) and must answer without a validation, input or internal error.
 * - ```json: must parse.
 * - ```sh / ```bash: run by the doc drill, `npm run test:docs` (test/drills/docs-shell.test.ts: a
 *   fresh clone-like directory, README first, as pasted; `.ci/run` runs it on every change). Here:
 *   a block that cannot run on a test machine says why in its fence (```sh no-run <reason>).
 * Other fences (ts, text) are not run.
 */

describe('documentation blocks', () => {
  const graphqlBlocks = ALL.filter((b) => b.lang === 'graphql');
  let schema: GraphQLSchema;
  let s: TestServer;
  beforeAll(async () => {
    schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it('finds the blocks (README zero-to-data, the dashboard query, …)', () => {
    expect(ALL.filter(isShell).length).toBeGreaterThanOrEqual(5);
    expect(graphqlBlocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(['docs/frontend.md', 'docs/guide/stats.md']),
    );
  });

  it('every GraphQL document validates against schema.graphql; those without required variables execute', async () => {
    const problems: string[] = [];
    let executed = 0;
    for (const b of graphqlBlocks) {
      let doc;
      try {
        doc = parse(b.code);
      } catch (err) {
        problems.push(`${at(b)}: ${(err as Error).message}`);
        continue;
      }
      for (const e of validate(schema, doc)) problems.push(`${at(b)}: ${e.message}`);
      const op = getOperationAST(doc);
      const required = (op?.variableDefinitions ?? []).some((v) => v.type.kind === 'NonNullType' && !v.defaultValue);
      if (!op || op.operation === 'subscription' || required || problems.length) continue;
      const res = await s.gql(b.code);
      executed++;
      const bad = (res.body.errors ?? []).filter(
        (e: { extensions?: { code?: string } }) => e.extensions?.code !== 'UNAUTHENTICATED',
      );
      if (res.status !== 200 || bad.length) problems.push(`${at(b)}: executed → ${res.status} ${JSON.stringify(bad)}`);
    }
    expect(problems).toEqual([]);
    expect(executed).toBeGreaterThanOrEqual(1); // the dashboard query
  });

  it('every JSON example parses', () => {
    const problems = ALL.filter((b) => b.lang === 'json').flatMap((b) => {
      try {
        JSON.parse(b.code);
        return [];
      } catch (err) {
        return [`${at(b)}: ${(err as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });

  it('shell blocks that cannot run here say why (listed)', () => {
    const skipped = ALL.filter((b) => isShell(b) && noRun(b));
    const listing = skipped.map((b) => `${at(b)} — ${b.flags.replace(/^no-run\s*/, '') || '(no reason given)'}`);
    console.log(`shell blocks not run (${skipped.length}):\n  ${listing.join('\n  ')}`);
    expect(skipped.filter((b) => b.flags.replace(/^no-run\s*/, '').length < 10).map(at)).toEqual([]);
  });
});
