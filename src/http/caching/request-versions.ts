import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';
import { readVersions } from '../../services/versions/index.ts';
import type { Versions } from '../../services/versions/index.ts';
import { AppError } from '../../errors/index.ts';
import { unauthorized } from '../auth/bearer-token.ts';

/**
 * The versions a keyed request's answer is read under, read with its key's standing. A key the
 * read finds revoked, or its account disabled (by another instance, the CLI), is refused here
 * with the 401 it would get once this instance's key cache heard, and the cache forgets it at
 * once, so no later request of that key is served in between.
 */
export async function requestVersions(
  db: Kysely<Database>,
  verifier: KeyVerifier,
  request: FastifyRequest,
  principal: Principal,
): Promise<Versions> {
  const versions = await readVersions(db, principal);
  if (typeof versions !== 'string') return versions;
  if (principal.keyId !== null) verifier.forget(principal.keyId);
  if (versions === 'disabled') throw AppError.of('UNAUTHORIZED', principal.token ? 'tokenAccountDisabled' : 'accountDisabled');
  throw unauthorized(request.headers.authorization);
}
