// ESLint is used here only for the GraphQL contract (scripts/schema-lint.js): `npm run lint:schema`.
const { schemaLintConfig } = require('./scripts/schema-lint');

module.exports = schemaLintConfig('schema.graphql');
