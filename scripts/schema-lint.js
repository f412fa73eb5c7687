// The GraphQL schema lint: @graphql-eslint's schema rules, as an ESLint flat config for one
// schema file (eslint.config.js applies it to schema.graphql: `npm run lint:schema`, zero
// findings allowed). docs/contributing.md "Schema lint" lists the rules.
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

/**
 * Findings that are not defects, by rule and schema coordinate, each with its reason (docs/contributing.md
 * "Schema lint" lists them). Kept short: a new entry needs a reason a reviewer accepts.
 */
const EXCEPTIONS = {
  'relay-arguments': {
    // paged by its parent field: User.ticketRecommendation(first:, after:) pages the one ticket's charts,
    // User.ticketRecommendations(first:) gives the first page of each ticket
    'TicketRecommendation.charts':
      'paged by the parent field ticketRecommendation(first:, after:), which computes the ticket ranking once',
  },
  'no-typename-prefix': {
    // "played", not the type name: the rule compares prefixes case-insensitively; every score type says playedAt
    'Play.playedAt':
      'playedAt is the play time on every score type; "Play" is not a prefix of it, only of its spelling',
  },
};

/**
 * Rules whose findings on a deprecated field, argument or enum value are dropped: a deprecated
 * alias keeps the old name or type for one release on purpose (docs/frontend.md "Deprecations"), and its
 * replacement beside it is linted normally.
 */
const DEPRECATED_ALIAS_RULES = ['naming-convention', 'no-typename-prefix', 'no-scalar-result-type-on-mutation'];

const DEFINITION_KINDS = new Set(['FieldDefinition', 'InputValueDefinition', 'EnumValueDefinition']);
const TYPE_KINDS = new Set([
  'ObjectTypeDefinition',
  'InterfaceTypeDefinition',
  'InputObjectTypeDefinition',
  'EnumTypeDefinition',
]);

/** The field / argument / enum value a reported node belongs to, and its coordinate (Type.field). */
function definitionOf(node) {
  let def = null;
  for (let n = node; n; n = n.parent) {
    if (!def && DEFINITION_KINDS.has(n.kind)) def = n;
    if (def && TYPE_KINDS.has(n.kind)) return { def, coordinate: `${n.name.value}.${def.name.value}` };
  }
  return def ? { def, coordinate: null } : null;
}

const isDeprecated = (def) => (def.directives || []).some((d) => d.name.value === 'deprecated');

/** A rule that drops the findings EXCEPTIONS and DEPRECATED_ALIAS_RULES allow, and reports the rest. */
function withExceptions(name, rule) {
  const allowed = EXCEPTIONS[name] || {};
  const aliases = DEPRECATED_ALIAS_RULES.includes(name);
  return {
    ...rule,
    create(context) {
      const report = (descriptor) => {
        const found = descriptor.node ? definitionOf(descriptor.node) : null;
        if (found && aliases && isDeprecated(found.def)) return;
        if (found && found.coordinate && allowed[found.coordinate]) return;
        context.report(descriptor);
      };
      return rule.create(Object.create(context, { report: { value: report } }));
    },
  };
}

const plugin = {
  ...graphql,
  rules: Object.fromEntries(
    Object.entries(graphql.rules).map(([name, rule]) => [
      name,
      EXCEPTIONS[name] || DEPRECATED_ALIAS_RULES.includes(name) ? withExceptions(name, rule) : rule,
    ]),
  ),
};

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
      plugins: { '@graphql-eslint': plugin },
      rules: {
        // naming, descriptions of types and root fields, no unreachable types, ids, deprecation reasons…
        ...graphql.configs['flat/schema-recommended'].rules,
        // Relay connections, edges, page info and paging arguments
        ...graphql.configs['flat/schema-relay'].rules,
        // every type, field, argument, input field and enum value described
        '@graphql-eslint/require-description': [
          'error',
          {
            types: true,
            rootField: true,
            FieldDefinition: true,
            InputValueDefinition: true,
            EnumValueDefinition: true,
            DirectiveDefinition: true,
          },
        ],
        // forward paging (first/after) is enough; last/before only where a UI pages backwards
        '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
        // edges named *Edge; plain lists stay allowed (small bounded lists); a node need not be a Node
        '@graphql-eslint/relay-edge-types': [
          'error',
          { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false },
        ],
        // objects carry an `id: ID!` (Relay identity); connection plumbing, payloads and value types need none
        '@graphql-eslint/strict-id-in-types': [
          'error',
          {
            acceptedIdNames: ['id'],
            acceptedIdTypes: ['ID'],
            exceptions: { types: ['PageInfo', ...valueTypes], suffixes: ['Connection', 'Edge', 'Payload'] },
          },
        ],
        // mutations return payload types (house rule)
        '@graphql-eslint/no-scalar-result-type-on-mutation': 'error',
      },
    },
  ];
}

module.exports = { schemaLintConfig, VALUE_TYPES, EXCEPTIONS, DEPRECATED_ALIAS_RULES, valueTypesOf };
