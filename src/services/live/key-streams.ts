import type { Kysely } from 'kysely';
import { KEY_CHANGES_POLL_MS } from '../../db/data-version.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { disabledAccounts } from '../accounts/disabled-accounts.ts';
import { refusedKeys } from '../api-keys/key-states.ts';
import type { KeyRefusal } from '../api-keys/key-states.ts';
import type { Principal } from '../principal.ts';
import { EventStream } from './event-stream.ts';
import { createPoller } from './poller.ts';

/** The last event of a stream whose credential stopped working, saying why. */
function endedBecause(why: KeyRefusal | 'expired'): AppError {
  if (why === 'expired') return AppError.of('UNAUTHORIZED', 'graphqlTokenExpiredWhileSubscribed');
  return AppError.of('UNAUTHORIZED', why === 'revoked' ? 'graphqlRevokedWhileSubscribed' : 'graphqlDisabledWhileSubscribed');
}

/** A timer's longest delay (2^31 - 1 ms, 24.8 days): Node runs a longer one at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Runs `run` at the time `when` (ms since the epoch), however far off, without holding the process open. */
function at(when: number, run: () => void): { clear(): void } {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = when - Date.now();
    timer = setTimeout(left > MAX_DELAY_MS ? arm : run, Math.max(0, Math.min(left, MAX_DELAY_MS)));
    timer.unref();
  };
  arm();
  return { clear: () => clearTimeout(timer) };
}

/** What this registry does with a stream, whatever its events are. */
type Stoppable = Pick<EventStream<unknown>, 'end' | 'stop'>;

/** The streams one credential holds open. */
interface Held {
  principal: Principal;
  streams: Set<Stoppable>;
}

export interface KeyStreams {
  /** A new stream for the credential, within its cap; `onEnd` runs once when it ends, however it ends. */
  open<T>(principal: Principal, onEnd: () => void): EventStream<T>;
  /** Streams open now, all credentials together. */
  openCount(): number;
  /** Ends every stream (the server is going away); no stream opens after this. */
  close(): void;
}

export interface KeyStreamsOptions {
  /** Open streams per credential (a key, or a token's holder) in this process. */
  perKey: number;
  /** A failed check of the credentials is retried at the next one. */
  onError: (error: unknown) => void;
}

/**
 * Every open stream by the credential that opened it (principal.bucket): the per-credential cap,
 * and the credential's continued validity. While any stream is open the keys behind them, and
 * the accounts of the tokens behind them, are read again every KEY_CHANGES_POLL_MS, one query
 * each for all, so a key revoked or an account disabled anywhere (this instance, another, the
 * CLI) ends its streams within the bound that applies to its requests; a token's streams end
 * when it expires. Each gets a last event saying why.
 */
export function createKeyStreams(db: Kysely<Database>, { perKey, onError }: KeyStreamsOptions): KeyStreams {
  const byBucket = new Map<string, Held>();
  let open = 0;
  let closed = false;

  const stopAll = (held: Held, why: KeyRefusal | 'expired') => {
    for (const stream of [...held.streams]) stream.stop(endedBecause(why));
  };

  const poller = createPoller({
    intervalMs: KEY_CHANGES_POLL_MS,
    active: () => byBucket.size > 0,
    onError,
    async run() {
      const held = [...byBucket.values()];
      const keyIds = held.flatMap(({ principal }) => (principal.keyId === null ? [] : [principal.keyId]));
      const tokenAccounts = held.flatMap(({ principal }) => (principal.token ? [principal.accountId] : []));
      const [keys, accounts] = await Promise.all([refusedKeys(db, keyIds), disabledAccounts(db, tokenAccounts)]);
      for (const one of held) {
        const why =
          one.principal.keyId === null ? (accounts.has(one.principal.accountId) ? 'disabled' : null) : keys.get(one.principal.keyId);
        if (why) stopAll(one, why);
      }
    },
  });

  return {
    open<T>(principal: Principal, onEnd: () => void): EventStream<T> {
      if (closed) throw AppError.of('SERVICE_UNAVAILABLE', 'graphqlShuttingDown');
      let held = byBucket.get(principal.bucket);
      if (held && held.streams.size >= perKey) {
        throw AppError.of('TOO_MANY_SUBSCRIPTIONS', 'graphqlPerKey', { max: perKey });
      }
      if (!held) {
        held = { principal, streams: new Set() };
        byBucket.set(principal.bucket, held);
      }
      const mine = held;
      let expiry: { clear(): void } | undefined;
      const stream: EventStream<T> = new EventStream<T>(() => {
        open--;
        expiry?.clear();
        mine.streams.delete(stream);
        if (mine.streams.size === 0) byBucket.delete(principal.bucket);
        onEnd();
      });
      // A stream lives no longer than the token that opened it.
      if (principal.token) {
        expiry = at(principal.token.expiresAt, () => stream.stop(endedBecause('expired')));
      }
      mine.streams.add(stream);
      open++;
      poller.wake();
      return stream;
    },
    openCount: () => open,
    close() {
      closed = true;
      poller.stop();
      for (const held of [...byBucket.values()]) for (const stream of [...held.streams]) stream.end();
    },
  };
}
