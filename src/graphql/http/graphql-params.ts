import type { FastifyRequest } from 'fastify';
import type { GraphQLParams } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';

/** What a request may name besides the operation's text: a trusted document's id. */
export interface RequestParams extends GraphQLParams {
  documentId?: string;
}

const NAMES = new Set(['query', 'variables', 'operationName', 'extensions', 'documentId']);

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);

/** GET sends variables and extensions as JSON text in the URL. */
function fromUrl(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalid(`Query parameter '${name}' is not valid JSON.`);
  }
}

function isObjectOrAbsent(value: unknown): value is Record<string, unknown> | null | undefined {
  return value == null || (typeof value === 'object' && !Array.isArray(value));
}

/**
 * The GraphQL over HTTP parameters of a request, from a POST's JSON object or a GET's query
 * string, each of the right kind; a request that is not a well-formed GraphQL request is
 * refused here with 400 VALIDATION_FAILED, saying what is wrong. Whether there is an operation
 * to run (text or a trusted document's id) is the trusted-documents plugin's to say.
 */
function readParams(req: FastifyRequest): RequestParams {
  const get = req.method === 'GET';
  const source = (get ? req.query : req.body) as unknown;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw invalid('The request body must be a JSON object.');
  }
  // An empty query parameter (`?query=`) is no parameter, as Yoga read it.
  const sent = get
    ? Object.fromEntries(Object.entries(source as Record<string, unknown>).filter(([, value]) => value !== ''))
    : (source as Record<string, unknown>);
  if (!get) {
    for (const name in sent) {
      if (!NAMES.has(name) && sent[name] != null) throw invalid(`Unexpected parameter '${name}' in the request body.`);
    }
  }
  // A query string may repeat a name: Fastify reads it as a list.
  if (get) for (const name of NAMES) if (Array.isArray(sent[name])) throw invalid(`Send '${name}' once.`);
  const { query, operationName, documentId } = sent;
  const variables = get ? fromUrl('variables', sent.variables) : sent.variables;
  const extensions = get ? fromUrl('extensions', sent.extensions) : sent.extensions;
  if (query != null && typeof query !== 'string') throw invalid("'query' must be a string: the operation's text.");
  if (operationName != null && typeof operationName !== 'string') throw invalid("'operationName' must be a string.");
  if (documentId != null && typeof documentId !== 'string') throw invalid("'documentId' must be a string: sha256:<hex>.");
  if (!isObjectOrAbsent(variables)) throw invalid("'variables' must be an object of the operation's variables.");
  if (!isObjectOrAbsent(extensions)) throw invalid("'extensions' must be an object.");
  return {
    ...(query != null ? { query } : {}),
    ...(variables != null ? { variables } : {}),
    ...(operationName != null ? { operationName } : {}),
    ...(extensions != null ? { extensions } : {}),
    ...(documentId != null ? { documentId } : {}),
  };
}

const read = new WeakMap<FastifyRequest, RequestParams>();

/** graphqlParams, worked out once per request whoever asks (the response cache, the route). */
export function graphqlParams(req: FastifyRequest): RequestParams {
  let params = read.get(req);
  if (!params) read.set(req, (params = readParams(req)));
  return params;
}
