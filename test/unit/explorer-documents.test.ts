import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate, type OperationDefinitionNode } from 'graphql';
import { EXPLORER_TABS } from '../../src/graphql/explorer-documents';
import { pickEncoding } from '../../src/graphql/explorer';

const schema = buildSchema(fs.readFileSync(path.join(__dirname, '../../schema.graphql'), 'utf8'));

describe('explorer default tabs', () => {
  it('are a dashboard query, a paging query and a subscription, each valid against schema.graphql', () => {
    const ops = EXPLORER_TABS.map((tab) => {
      const doc = parse(tab.query);
      expect(validate(schema, doc)).toEqual([]);
      const defs = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
      expect(defs).toHaveLength(1);
      return `${defs[0].operation} ${defs[0].name?.value}`;
    });
    expect(ops).toEqual(['query Dashboard', 'query SongsPage', 'subscription Notifications']);
  });
});

describe('explorer encoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('BR')).toBe('br');
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('gzip;q=0')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding('identity')).toBe('identity');
  });
});
