/** int64 in the contract, but a JSON number is exact only up to 2^53−1; larger ids are refused, never rounded. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

/** An ISO 8601 UTC timestamp as the service writes it: `2026-11-22T12:00:00.123Z`. */
export const timestampSchema = { type: 'string', format: 'date-time', maxLength: 24 } as const;

/** Every id and id reference of the API (pets, orders, categories). */
export const idSchema = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_SAFE_ID } as const;
