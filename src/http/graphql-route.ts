/** Where GraphQL is served: the one route of the GraphQL face, as metrics and errors tell the faces apart. */
export const GRAPHQL_ROUTE = '/graphql';
