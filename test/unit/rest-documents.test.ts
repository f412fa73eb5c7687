import fs from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { documentProblems, fixedDocument } from '../../src/graphql/documents';
import { FIXED_DOCUMENTS } from '../../src/rest/documents';

const schema = buildSchema(fs.readFileSync(path.join(__dirname, '../../schema.graphql'), 'utf8'));

/**
 * The fixed documents of the REST routes and MCP tools (src/rest/documents/) against the emitted
 * schema: each one valid, named as declared, unique. The server compiles the same list at start-up
 * and refuses to start on an invalid one (src/graphql/documents.ts).
 */
describe('fixed GraphQL documents of REST and MCP', () => {
  it.each(FIXED_DOCUMENTS.map((d) => [d.name, d] as const))('%s is valid against schema.graphql', (_name, doc) => {
    expect(documentProblems(schema, doc)).toEqual([]);
  });

  it('have unique names', () => {
    const names = FIXED_DOCUMENTS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a document that does not match the schema, or misnames its operation, is reported', () => {
    expect(documentProblems(schema, fixedDocument('Bad', 'query Bad { user(id: "x") { noSuchField } }'))).toEqual([
      'Cannot query field "noSuchField" on type "User".',
    ]);
    expect(documentProblems(schema, fixedDocument('Other', 'query Bad { serverInfo { name } }'))).toEqual([
      'no operation named Other',
    ]);
  });
});
