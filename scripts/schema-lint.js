// The GraphQL schema lint: @graphql-eslint's schema rules, as an ESLint flat config for one
// schema file (eslint.config.js applies it to schema.graphql: `npm run lint:schema`, zero
// findings allowed). README "Schema lint" lists the rules.
const graphql = require('@graphql-eslint/eslint-plugin');

/**
 * Object types that are values, not entities: no `id`, and their description says so.
 * strict-id-in-types skips them.
 */
const VALUE_TYPES = [
  // rivals (src/modules/rivals/rivals.types.ts): descriptions start with "Value type:"
  'ChartRank',
  'FollowingBpiChange',
  'FollowingChartScore',
  'FollowingChartStat',
  'NearLoss',
  'RivalChart',
  'RivalSide',
  'RivalSummary',
  'Rivalry',
  'RivalTrendPoint',
  'SuggestedRival',

  // optimizer (values without identity: a plan, its steps and settings, a ticket's advice)
  'BpiPlan',
  'BpiPlanSettings',
  'BpiPlanStep',
  'TicketChart',
  'TicketRecommendation',
];

/**
 * Object types of the schema file whose description starts with "Value type:" — values without
 * identity (a summary, a point of a chart, a page's row): strict-id-in-types skips them as it
 * skips VALUE_TYPES. The description is the declaration, so a reader of the schema sees it too.
 */
function valueTypesOf(schemaFile) {
  const fs = require('node:fs');
  const { parse, Kind } = require('graphql');
  let doc;
  try {
    doc = parse(fs.readFileSync(schemaFile, 'utf8'));
  } catch {
    return []; // the parser reports an unreadable schema itself
  }
  return doc.definitions
    .filter((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.description && /^Value type:/.test(d.description.value))
    .map((d) => d.name.value);
}

/** @returns {import('eslint').Linter.Config[]} */
function schemaLintConfig(schemaFile) {
  const valueTypes = [...new Set([...VALUE_TYPES, ...valueTypesOf(schemaFile)])];
  return [
    {
      files: [schemaFile],
      languageOptions: {
        parser: graphql.parser,
        parserOptions: { graphQLConfig: { schema: schemaFile } },
      },
      plugins: { '@graphql-eslint': graphql },
      rules: {
        // naming, descriptions of types and root fields, no unreachable types, ids, deprecation reasons…
        ...graphql.configs['flat/schema-recommended'].rules,
        // Relay connections, edges, page info and paging arguments
        ...graphql.configs['flat/schema-relay'].rules,
        // every type, field, argument, input field and enum value described
        '@graphql-eslint/require-description': [
          'error',
          { types: true, rootField: true, FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true, DirectiveDefinition: true },
        ],
        // forward paging (first/after) is enough; last/before only where a UI pages backwards
        '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
        // edges named *Edge; plain lists stay allowed (small bounded lists); a node need not be a Node
        '@graphql-eslint/relay-edge-types': ['error', { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
        // objects carry an `id: ID!` (Relay identity); connection plumbing, payloads and value types need none
        '@graphql-eslint/strict-id-in-types': [
          'error',
          { acceptedIdNames: ['id'], acceptedIdTypes: ['ID'], exceptions: { types: ['PageInfo', ...valueTypes], suffixes: ['Connection', 'Edge', 'Payload'] } },
        ],
        // mutations return payload types (house rule)
        '@graphql-eslint/no-scalar-result-type-on-mutation': 'error',
      },
    },
  ];
}

module.exports = { schemaLintConfig, VALUE_TYPES, valueTypesOf };
