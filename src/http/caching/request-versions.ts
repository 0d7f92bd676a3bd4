import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';
import { readVersions } from '../../services/versions/index.ts';
import type { Versions } from '../../services/versions/index.ts';
import { AppError } from '../../errors/index.ts';
import { unauthorized } from '../auth/bearer-token.ts';
import { readDb } from '../read-routing.ts';
import type { MaybePromise } from '../maybe-promise.ts';

/**
 * The versions a keyed request's answer is read under, read with its key's standing, from where
 * its rows will be read (a replica, read-routing.ts), so the tag or key made of them names what
 * the answer shows. A key the read finds revoked, or its account disabled (by another instance,
 * the CLI), is refused here with the 401 it would get once this instance's key cache heard, and
 * the cache forgets it at once, so no later request of that key is served in between.
 */
export function requestVersions(
  db: Kysely<Database>,
  verifier: KeyVerifier,
  request: FastifyRequest,
  principal: Principal,
): Promise<Versions> {
  // The read database is mostly known at once: no promise is made to wait for it. Like an async
  // function, this one answers every failure as a rejection.
  let reads: MaybePromise<Kysely<Database>>;
  try {
    reads = readDb(request, db);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return reads instanceof Promise
    ? reads.then((from) => versionsFrom(from, verifier, request, principal))
    : versionsFrom(reads, verifier, request, principal);
}

async function versionsFrom(db: Kysely<Database>, verifier: KeyVerifier, request: FastifyRequest, principal: Principal): Promise<Versions> {
  const versions = await readVersions(db, principal);
  if (typeof versions !== 'string') return versions;
  if (principal.keyId !== null) verifier.forget(principal.keyId);
  if (versions === 'disabled') throw AppError.of('UNAUTHORIZED', principal.token ? 'tokenAccountDisabled' : 'accountDisabled');
  throw unauthorized(request.headers.authorization);
}
