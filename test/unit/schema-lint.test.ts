import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The schema lint (scripts/schema-lint.js, `npm run lint:schema`) on small schemas: a fully
 * described one with ids and a Relay connection passes with zero findings; each kind of gap is
 * reported under its rule. Runs ESLint as `npm run lint:schema` does, in a child process.
 */
const root = path.join(__dirname, '../..');

function lint(schema: string): { ruleId: string; message: string }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-lint-'));
  try {
    fs.writeFileSync(path.join(dir, 'schema.graphql'), schema);
    fs.writeFileSync(
      path.join(dir, 'eslint.config.js'),
      `module.exports = require(${JSON.stringify(path.join(root, 'scripts/schema-lint.js'))}).schemaLintConfig('schema.graphql');\n`,
    );
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        [path.join(root, 'node_modules/eslint/bin/eslint.js'), '-f', 'json', '--max-warnings', '0', 'schema.graphql'],
        {
          cwd: dir,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    } catch (err) {
      out = (err as { stdout: string }).stdout; // exit 1 with findings
    }
    const [result] = JSON.parse(out) as { messages: { ruleId: string; message: string }[] }[];
    return result.messages.map((m) => ({
      ruleId: m.ruleId.replace('@graphql-eslint/', ''),
      message: m.message.split('\n')[0],
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CLEAN = `
"""The root of every query"""
type Query {
  """A player by id"""
  player(
    """The player's id"""
    id: ID!
  ): Player
  """Players, by name"""
  players(
    """Page size, 1–100"""
    first: Int
    """Cursor from pageInfo.endCursor"""
    after: String
  ): PlayerConnection!
}

"""A player"""
type Player {
  """Opaque id"""
  id: ID!
  """Display name"""
  name: String!
  """Play style"""
  style: Style!
}

"""Single or double play"""
enum Style {
  """Single play"""
  SP
  """Double play"""
  DP
}

"""A page of players"""
type PlayerConnection {
  """The players of this page"""
  edges: [PlayerEdge!]!
  """Where this page is"""
  pageInfo: PageInfo!
}

"""One player of a page"""
type PlayerEdge {
  """Opaque cursor"""
  cursor: String!
  """The player"""
  node: Player!
}

"""Relay page information"""
type PageInfo {
  """More after this page"""
  hasNextPage: Boolean!
  """More before this page"""
  hasPreviousPage: Boolean!
  """First cursor of the page"""
  startCursor: String
  """Last cursor of the page"""
  endCursor: String
}
`;

describe('schema lint (@graphql-eslint schema rules)', () => {
  it('finds nothing in the project schema (schema.graphql): every type, field, argument and enum value described', () => {
    // the CI gate: `npm run lint:schema` fails on any finding, and so does this test in `npm test`
    expect(lint(fs.readFileSync(path.join(root, 'schema.graphql'), 'utf8'))).toEqual([]);
  }, 60_000);

  it('exempts deprecated aliases from the naming rules and "Value type:" objects from the id rule, and nothing else', () => {
    const schema = CLEAN.replace(
      '"""Display name"""\n  name: String!',
      [
        '"""Display name"""',
        '  name: String!',
        '  """Old spelling of name"""',
        '  NAME: String! @deprecated(reason: "Use name")',
        '  """Not deprecated"""',
        '  NICK: String!',
        '  """Follower counts"""',
        '  counts: Counts!',
        '  """Play totals"""',
        '  totals: Totals!',
      ].join('\n'),
    ).concat(
      '\n"""Value type: follower counts"""\ntype Counts {\n  """Followers"""\n  followers: Int!\n}\n',
      '\n"""Totals of a player"""\ntype Totals {\n  """Plays"""\n  plays: Int!\n}\n',
    );
    // NAME (deprecated) passes and NICK does not; Counts (a value type) passes and Totals does not
    expect(lint(schema)).toEqual([
      { ruleId: 'naming-convention', message: 'Field "NICK" should be in camelCase format' },
      { ruleId: 'strict-id-in-types', message: 'type "Totals" must have exactly one non-nullable unique identifier.' },
    ]);
  }, 60_000);

  it('passes a described schema with ids and a Relay connection, and flags each gap under its rule', () => {
    expect(lint(CLEAN)).toEqual([]);
    // three gaps: an undescribed argument, an undescribed enum value, an object without id
    const gaps = CLEAN.replace('"""The player\'s id"""\n', '')
      .replace('  """Double play"""\n', '')
      .replace(
        '"""Display name"""\n  name: String!\n  """Play style"""\n  style: Style!',
        '"""Display name"""\n  name: String!\n  """Play style"""\n  style: Style!\n  """Counts"""\n  counts: Counts!',
      )
      .concat('\n"""Follower counts"""\ntype Counts {\n  """Followers"""\n  followers: Int!\n}\n');
    expect(lint(gaps)).toEqual([
      { ruleId: 'require-description', message: 'Description is required for input value "id" in field "player"' },
      { ruleId: 'require-description', message: 'Description is required for enum value "DP" in enum "Style"' },
      { ruleId: 'strict-id-in-types', message: 'type "Counts" must have exactly one non-nullable unique identifier.' },
    ]);
  }, 60_000);
});
