/**
 * Scalars of the contract that graphql-scalars does not have. (graphql-scalars' own — UUID,
 * LocalDate, URL, NonNegativeInt, JSON — are imported from it where they are used.)
 */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GAME_VERSIONS, LATEST_VERSION } from '../domain/constants';

/**
 * A game version: a string on the wire, as before ("33", "INF"). A scalar, not an enum: enum
 * values cannot start with a digit, so an enum would change every version on the wire ("V33"),
 * and the set grows with each release. The scalar checks the shape (a string); whether the
 * version is known is checked by the operation through the one args parser (src/graphql/args.ts),
 * so an unknown version stays BAD_USER_INPUT naming the argument, literal or variable alike.
 */
export const GameVersionScalar = new GraphQLScalarType<string, string>({
  name: 'GameVersion',
  description:
    `A beatmania IIDX game version, as a string: the version number ("26" … "34") or "INF" (INFINITAS). ` +
    `Known to this server: ${GAME_VERSIONS.join(', ')} (serverInfo.gameVersions); the latest, ${LATEST_VERSION}, is the default of every optional version argument. ` +
    'An unknown version is BAD_USER_INPUT naming the argument',
  serialize(value) {
    // as String serializes: a number becomes its decimal string
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new GraphQLError(`GameVersion cannot represent ${JSON.stringify(value)}`);
  },
  parseValue(value) {
    if (typeof value !== 'string') throw new GraphQLError('A game version is a string, e.g. "33"');
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('A game version is a string, e.g. "33"', { nodes: ast });
    return ast.value;
  },
});

/** Counts (totalCount, followers, rows…): graphql-scalars' NonNegativeInt, re-exported for the areas. */
export { GraphQLNonNegativeInt } from 'graphql-scalars';
