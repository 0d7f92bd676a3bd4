import { PAGE_SIZE } from './keyset-page.ts';

/**
 * The query of every keyset list (contract §4.1 and §8 for pets; orders page the same way):
 * `limit`, an optional `status` filter, and the `cursor` from the previous page's Link header.
 */
export function listQuerySchema<S extends object>(things: string, statusSchema: S) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: {
        type: 'integer',
        format: 'int32',
        minimum: PAGE_SIZE.min,
        maximum: PAGE_SIZE.max,
        default: PAGE_SIZE.default,
        description: `Maximum number of ${things} returned.`,
      },
      status: { ...statusSchema, description: `Filters ${things} by status.` },
      cursor: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'Opaque cursor from the `Link: rel="next"` header of the previous page.',
      },
    },
  } as const;
}
