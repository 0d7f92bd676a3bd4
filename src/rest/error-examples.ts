import { errorCatalogue, errorMessage } from '../errors/index.ts';
import type { ErrorCode, Placeholder } from '../errors/index.ts';

/** What a request would fill each placeholder with, so an example reads as an answer the server gives. */
const EXAMPLE_VALUES: Record<Placeholder, string | number> = {
  id: 42,
  name: 'acme',
  key: 'psk_Ab3dE6gH',
  status: 'sold',
  next: 'approved',
  target: 'delivered',
  cap: 10,
  limit: 100,
  policy: 'per-key',
  seconds: 37,
  method: 'GET',
  path: '/v1/pet',
  outside: '/messages/msg_1',
  openapi: '/v1/openapi.json',
  route: '/v1/pets/:petId',
  allow: 'GET, HEAD, DELETE',
  operation: 'POST /v1/keys',
  rule: '1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  asset: 'graphiql-0000.js',
  fragment: 'PetFields',
  parameter: 'variables',
  bytes: 20480,
  max: 16384,
  depth: 16,
  count: 40,
  cost: 10210,
  events: 1000,
  audience: 'https://petstore.example.com/',
  claim: 'sub',
  scope: 'petstore:write',
  types: 'Pet or Order',
  version: '2024-11-05',
  supported: '2026-07-28, 2025-11-25, 2025-06-18',
  origin: 'https://evil.example',
  uri: 'petstore://nothing',
};

/**
 * The OpenAPI examples of one code: each message REST can send with it (those named `graphql…`
 * are the GraphQL face's, `mcp…` the MCP face's), as the Error body a client would get, named
 * `CODE` for the default message and `CODE.name` for the others.
 */
export function errorExamples(code: ErrorCode): Record<string, { value: { code: ErrorCode; message: string; status: number } }> {
  const { status, messages } = errorCatalogue[code];
  const names = Object.keys(messages);
  const shown = names.filter((name) => !name.startsWith('graphql') && !name.startsWith('mcp'));
  return Object.fromEntries(
    (shown.length > 0 ? shown : names).map((name) => [
      name === 'default' ? code : `${code}.${name}`,
      { value: { code, message: errorMessage(code, name, EXAMPLE_VALUES), status } },
    ]),
  );
}
