import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/** Every Idempotency-Key claimed before `before` (an ISO time), forgotten. */
export const purgeIdempotencyKeys = preparedQuery((db: Kysely<Database>, before: string) =>
  db.deleteFrom('idempotency_keys').where('created_at', '<', before),
);
