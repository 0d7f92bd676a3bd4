import { errorCatalogue } from '../errors/index.ts';

export const errorBodySchema = {
  $id: 'Error',
  type: 'object',
  description: 'Body of every error response (contract §2.4).',
  required: ['code', 'message', 'status'],
  properties: {
    code: { type: 'string', enum: Object.keys(errorCatalogue), description: 'Machine-readable error code.' },
    message: { type: 'string', description: 'Human-readable description.' },
    status: { type: 'integer', description: 'The HTTP status code of the response.' },
  },
} as const;

const errorRef = { $ref: 'Error#' } as const;

/** Response entries for the error statuses a route can answer with. */
export function errorResponses(...statuses: number[]): Record<number, { description: string } & typeof errorRef> {
  const descriptions: Record<number, string> = {
    400: 'Missing or invalid values (Error).',
    401: 'Missing or invalid API key (Error).',
    404: 'The requested resource could not be found (Error).',
    409: 'The request conflicts with the current state (Error).',
    501: 'Not implemented yet (Error).',
    503: 'Not ready (Error).',
  };
  return Object.fromEntries(statuses.map((s) => [s, { ...errorRef, description: descriptions[s] ?? 'Error.' }]));
}

export const bearerSecurity = [{ bearerAuth: [] }];
