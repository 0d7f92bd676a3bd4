import type { FieldNaming } from '../../services/validation/describe-issue.ts';

/** Where a REST input arrived, as Fastify names the part it validated. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

const NAMINGS: Record<RequestPart, FieldNaming> = {
  body: (field) => (field === '' ? 'The request body' : `Field '${field}'`),
  querystring: (field) => (field === '' ? 'The query string' : `Query parameter '${field}'`),
  params: (field) => (field === '' ? 'The path' : `Path parameter '${field}'`),
  headers: (field) => (field === '' ? 'The headers' : `Header '${field}'`),
};

/** How REST names a field in its messages: by the part of the request it came in. */
export function requestNaming(part: RequestPart): FieldNaming {
  return NAMINGS[part];
}
