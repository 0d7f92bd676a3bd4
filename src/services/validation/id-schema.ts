/** int64 in the contract, but a JSON number is exact only up to 2^53−1; larger ids are refused, never rounded. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

/** Every id and id reference of the API (pets, orders, categories). */
export const idSchema = { type: 'integer', minimum: 1, maximum: MAX_SAFE_ID } as const;
