// ESLint: typescript-eslint over the code (`npm run lint`, with prettier --check) and the GraphQL
// contract (scripts/schema-lint.js, `npm run lint:schema`). Formatting is prettier's alone
// (.prettierrc.json); no rule here is about layout.
const tseslint = require('typescript-eslint');
const { schemaLintConfig } = require('./scripts/schema-lint');

/**
 * recommended-type-checked, tuned where it is noise for this code base (each line says why).
 * Everything else is on as typescript-eslint ships it.
 */
const TUNED = {
  // Prisma's raw rows, GraphQL roots/args and JSON read from files arrive untyped: the unsafe-*
  // family flags every use of them (hundreds of findings, each a cast that adds no safety). `any`
  // itself is an error outside test/ (no-explicit-any), so these would only re-report its uses.
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  // An error, as shipped. Where `any` is the contract (the rule table's targets and the node keys
  // read any type's root object), one alias says so (ObjectRoot, src/graphql/context.ts) with the
  // one disable comment; test/ is exempt (below).
  '@typescript-eslint/no-explicit-any': 'error',
  // `_name` marks a parameter kept for its position (resolver signatures, callbacks).
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
  // type-graphql's decorators need the class value (`Function` is its documented parameter type).
  '@typescript-eslint/no-unsafe-function-type': 'off',
  // Fastify and type-graphql hooks are async by contract even when one implementation awaits nothing.
  '@typescript-eslint/require-await': 'off',
  // Error messages quote bad input as it came (unknown JSON values, GraphQL types printed by their
  // own toString); wrapping each in String() adds nothing (5 findings, all of that kind).
  '@typescript-eslint/restrict-template-expressions': 'off',
  // Its autofix once removed casts tsc needs: where a generic call infers its type from the cast
  // (Prisma's JSON inputs), the rule sees a receiver that accepts the original type and tsc does not.
  // Remove a flagged cast only when `npx tsc` and `npm run build` both stay clean; a cast tsc needs
  // carries a disable comment saying so. Tests' `as any` reads of GraphQL answers are skipped.
  '@typescript-eslint/no-unnecessary-type-assertion': ['error', { typesToIgnore: ['any'] }],
  // Fire-and-forget is deliberate in a few places (`void promise`), and a floating promise is still an error.
  '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
  // Callbacks handed to Node / Fastify APIs that accept a promise-returning function are fine.
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
  // Prisma errors and rejection reasons come in as `unknown`; rethrowing them as they are is right.
  '@typescript-eslint/prefer-promise-reject-errors': 'off',
  '@typescript-eslint/only-throw-error': 'off',
  // graphql-js compares its `Kind` / `OperationTypeNode` enums with their string values
  // ('query', 'Field') as its own docs do; 11 findings, all of that kind.
  '@typescript-eslint/no-unsafe-enum-comparison': 'off',
  // A rule verdict is `boolean | Promise<boolean>` by design (sync when no lookup is needed:
  // src/graphql/rules.ts); Promise.all over such lists is intended (9 findings, all of that kind).
  '@typescript-eslint/await-thenable': 'off',
  // The parsers turn JSON values of unknown type into text on purpose (`String(v ?? '')`): an
  // object there is bad input the validators report (12 findings, all in parsers of outside data).
  '@typescript-eslint/no-base-to-string': 'off',
  // Manifests and CLI tables hold function-valued properties of plain objects that never use
  // `this` (5 findings, none a real method of a class).
  '@typescript-eslint/unbound-method': 'off',
};

module.exports = [
  { ignores: ['node_modules/**', 'dist/**', 'src/generated/**', 'test/client/generated.ts'] },
  ...schemaLintConfig('schema.graphql'),
  ...tseslint.config({
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['scripts/*.ts'] }, tsconfigRootDir: __dirname } },
    rules: TUNED,
  }),
  // Tests read GraphQL answers through generic helpers as `any` on purpose (`expectNoErrors(r) as any`).
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  ...tseslint.config({
    files: ['scripts/**/*.js', '*.config.js'],
    extends: [tseslint.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
    // CommonJS scripts load with require (node, no build step).
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  }),
];
