import {
  NoSchemaIntrospectionCustomRule,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';

/** graphql-js' validation rules, and no introspection unless it is allowed (Apollo's rules). */
export const validationRules = (introspection: boolean): readonly ValidationRule[] =>
  introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];

/** A GraphQL text read: its document and operation (null: not reached), and what is wrong with it (empty: valid). */
export interface ReadOperation {
  document: DocumentNode | null;
  operation: OperationDefinitionNode | null;
  problems: string[];
}

/**
 * Parses a GraphQL text, validates it against the schema and picks its operation (by name, or the
 * only one): the parse error, else the validation errors and a missing operation, are its
 * problems. What may run of a valid operation (a subscription, introspection) is the caller's to say:
 * the fixed documents (documents.ts) and the compiled executor (executor.ts) read documents so.
 */
export function readOperation(
  schema: GraphQLSchema,
  source: string,
  operationName: string | undefined,
  rules: readonly ValidationRule[],
  parseOptions?: ParseOptions,
): ReadOperation {
  let document: DocumentNode;
  try {
    document = parse(source, parseOptions);
  } catch (err) {
    return { document: null, operation: null, problems: [(err as Error).message] };
  }
  const problems = validate(schema, document, rules).map((e) => e.message);
  const operation = getOperationAST(document, operationName) ?? null;
  if (!operation) problems.push(operationName ? `no operation named ${operationName}` : 'no single operation');
  return { document, operation, problems };
}
