/** A resource as resources/list shows it, and how its text is read. */
export interface AgentResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read: () => string;
  /** Whether its HTTP route serves it to anyone (a shared cache may keep it), given whether introspection is on. */
  open: (introspection: boolean) => boolean;
}

/** Text made once, the first time it is read. */
function once(make: () => string): () => string {
  let made: string | undefined;
  return () => (made ??= make());
}

/**
 * What an agent may read of the API itself: the GraphQL schema its tools run against (the SDL
 * GET /graphql/schema.graphql serves, with descriptions and directives) and the REST contract
 * (GET /v1/openapi.json). Both are open to any valid credential, as over HTTP (the SDL needs one
 * where introspection is off; every MCP message carries one). `openApi` is REST's own document,
 * built by @fastify/swagger once the routes are in.
 */
export function agentResources(sdl: string, openApi: () => unknown): AgentResource[] {
  return [
    {
      uri: 'petstore://schema.graphql',
      name: 'schema.graphql',
      title: 'GraphQL schema',
      description:
        "The GraphQL schema this server's tools are operations of, as SDL: every type, field and argument with its description, and the directives as applied.",
      mimeType: 'application/graphql',
      read: () => sdl,
      open: (introspection) => introspection,
    },
    {
      uri: 'petstore://openapi.json',
      name: 'openapi.json',
      title: 'REST API (OpenAPI)',
      description: "The pet store's REST contract (/v1) as an OpenAPI 3.1 document: routes, parameters, bodies and the Error body.",
      mimeType: 'application/json',
      read: once(() => JSON.stringify(openApi())),
      open: () => true,
    },
  ];
}
