import type { FastifyRequest } from 'fastify';
import type { GraphQLParams } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../http/limits/json-depth.ts';

/** What a request may name besides the operation's text: a trusted document's id. */
export interface RequestParams extends GraphQLParams {
  documentId?: string;
}

const NAMES = new Set(['query', 'variables', 'operationName', 'extensions', 'documentId']);

/** GET sends variables and extensions as JSON text in the URL, bounded as a body is before it is parsed. */
function fromUrl(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (nestsDeeperThan(value)) throw AppError.of('VALIDATION_FAILED', 'jsonTooDeep', { max: MAX_JSON_DEPTH });
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw AppError.of('VALIDATION_FAILED', 'graphqlNotJsonParameter', { parameter: name });
  }
}

function isObjectOrAbsent(value: unknown): value is Record<string, unknown> | null | undefined {
  return value == null || (typeof value === 'object' && !Array.isArray(value));
}

/**
 * The GraphQL over HTTP parameters of a request, from a POST's JSON object or a GET's query
 * string, each of the right kind; a request that is not a well-formed GraphQL request is
 * refused here with 400 VALIDATION_FAILED, saying what is wrong. Whether there is an operation
 * to run (text or a trusted document's id) is the trusted-documents rule's to say; the record
 * of the operation asked for reads them once per request (operation-request.ts).
 */
export function readParams(req: FastifyRequest): RequestParams {
  const get = req.method === 'GET';
  const source = (get ? req.query : req.body) as unknown;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw AppError.of('VALIDATION_FAILED', 'graphqlBodyNotObject');
  }
  // An empty query parameter (`?query=`) is no parameter, as Yoga read it.
  const sent = get
    ? Object.fromEntries(Object.entries(source as Record<string, unknown>).filter(([, value]) => value !== ''))
    : (source as Record<string, unknown>);
  if (!get) {
    for (const name in sent) {
      if (!NAMES.has(name) && sent[name] != null) throw AppError.of('VALIDATION_FAILED', 'graphqlUnexpectedParameter', { parameter: name });
    }
  }
  // A query string may repeat a name: Fastify reads it as a list.
  if (get)
    for (const name of NAMES)
      if (Array.isArray(sent[name])) throw AppError.of('VALIDATION_FAILED', 'graphqlParameterTwice', { parameter: name });
  const { query, operationName, documentId } = sent;
  const variables = get ? fromUrl('variables', sent.variables) : sent.variables;
  const extensions = get ? fromUrl('extensions', sent.extensions) : sent.extensions;
  if (query != null && typeof query !== 'string') throw AppError.of('VALIDATION_FAILED', 'graphqlQueryNotString');
  if (operationName != null && typeof operationName !== 'string') throw AppError.of('VALIDATION_FAILED', 'graphqlOperationNameNotString');
  if (documentId != null && typeof documentId !== 'string') throw AppError.of('VALIDATION_FAILED', 'graphqlDocumentIdNotString');
  if (!isObjectOrAbsent(variables)) throw AppError.of('VALIDATION_FAILED', 'graphqlVariablesNotObject');
  if (!isObjectOrAbsent(extensions)) throw AppError.of('VALIDATION_FAILED', 'graphqlExtensionsNotObject');
  return {
    ...(query != null ? { query } : {}),
    ...(variables != null ? { variables } : {}),
    ...(operationName != null ? { operationName } : {}),
    ...(extensions != null ? { extensions } : {}),
    ...(documentId != null ? { documentId } : {}),
  };
}
