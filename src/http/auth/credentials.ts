import { AppError } from '../../errors/index.ts';
import type { TokenVerifier } from '../../services/access-tokens/token-verifier.ts';
import type { KeyVerdict, KeyVerifier, Principal } from '../../services/api-keys/index.ts';
import { whenReady } from '../maybe-promise.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { bearerToken } from './bearer-token.ts';

/** What checks a bearer credential: API keys always; access tokens where an issuer is configured. */
export interface Credentials {
  keys: KeyVerifier;
  tokens: TokenVerifier | null;
}

/**
 * Who an `Authorization: Bearer …` header stands for: the principal; the refusal that says why
 * not (a disabled account, a token refused, its issuer unreachable); or null for no credential
 * or an API key that is not valid, which `unauthorized(header)` words. A JWT goes to the token
 * verifier, anything else to the keys', so a key is never read as a token nor a token as a key.
 * `admit` is asked before an account is made for a token's new subject, and refuses by throwing
 * (a budget spent: RATE_LIMITED), which becomes the verdict. Now when the verdict is remembered,
 * else a promise.
 */
export function authenticate(
  { keys, tokens }: Credentials,
  authorization: string | undefined,
  admit?: () => Promise<void>,
): MaybePromise<Principal | AppError | null> {
  const credential = bearerToken(authorization);
  if (credential === null) return null;
  if (tokens?.claims(credential)) {
    return tokens.recall(credential) ?? tokens.verify(credential, admit).catch((error: unknown) => refusedOrThrow(error));
  }
  const known = keys.recall(credential);
  return known !== undefined ? fromKey(known) : whenReady(keys.verify(credential), fromKey);
}

function refusedOrThrow(error: unknown): AppError {
  if (error instanceof AppError) return error;
  throw error;
}

function fromKey(verdict: KeyVerdict): Principal | AppError | null {
  return verdict === 'disabled' ? AppError.of('UNAUTHORIZED', 'accountDisabled') : verdict;
}
