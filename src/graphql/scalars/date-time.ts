import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const NOT_TEXT = 'DateTime must be an RFC 3339 date-time string, e.g. "2026-12-01T10:00:00Z".';

/**
 * DateTime carries RFC 3339 text both ways. Output values are the services' ISO strings, as
 * stored. Input is passed on as text: the service checks it with the same rule and words as
 * REST (src/services/validation/date-time.ts), rather than a second parser here.
 */
export const DateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  serialize(value) {
    if (typeof value !== 'string') throw new GraphQLError('DateTime values are ISO strings.');
    return value;
  },
  parseValue(value) {
    if (typeof value !== 'string') throw new GraphQLError(NOT_TEXT);
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(NOT_TEXT, { nodes: ast });
    return ast.value;
  },
});
