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

/** A transport's connection held for a credential (a graphql-ws socket): closed, saying why, when the credential stops working. */
type SocketClose = (why: AppError) => void;

/** The streams and sockets one credential holds open. */
interface Held {
  principal: Principal;
  streams: Set<Stoppable>;
  sockets: Set<SocketClose>;
}

/** A socket's place in its credential's cap, given back when the socket closes. */
export interface SocketHold {
  release(): void;
}

export interface KeyStreams {
  /** A new stream for the credential, within its cap; `onEnd` runs once when it ends, however it ends. */
  open<T>(principal: Principal, onEnd: () => void): EventStream<T>;
  /**
   * A socket the credential keeps open (whether or not it carries a stream), within the same cap
   * as its streams, counted apart from them: `close` runs once if the credential stops working
   * (revoked, disabled, its token expired) before the hold is released.
   */
  holdSocket(principal: Principal, close: SocketClose): SocketHold;
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
 * Every open stream, and every socket held open (graphql-ws), by the credential that opened it
 * (principal.bucket): the per-credential caps, and the credential's continued validity. While any stream is open the keys behind them, and
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
    for (const close of [...held.sockets]) close(endedBecause(why));
  };

  /** The credential's entry, made on first use; a new item must fit `perKey` items of its kind. */
  const heldFor = (principal: Principal, kind: 'streams' | 'sockets'): Held => {
    let held = byBucket.get(principal.bucket);
    if (held && held[kind].size >= perKey) {
      throw AppError.of('TOO_MANY_SUBSCRIPTIONS', kind === 'streams' ? 'graphqlPerKey' : 'graphqlSocketsPerKey', { max: perKey });
    }
    if (!held) {
      held = { principal, streams: new Set(), sockets: new Set() };
      byBucket.set(principal.bucket, held);
    }
    return held;
  };
  const forget = (principal: Principal, held: Held) => {
    if (held.streams.size === 0 && held.sockets.size === 0) byBucket.delete(principal.bucket);
  };
  /** Runs `run` when the principal's token expires (never for an API key). */
  const atExpiry = (principal: Principal, run: () => void) => (principal.token ? at(principal.token.expiresAt, run) : undefined);

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
      const mine = heldFor(principal, 'streams');
      const stream: EventStream<T> = new EventStream<T>(() => {
        open--;
        expiry?.clear();
        mine.streams.delete(stream);
        forget(principal, mine);
        onEnd();
      });
      // A stream lives no longer than the token that opened it.
      const expiry = atExpiry(principal, () => stream.stop(endedBecause('expired')));
      mine.streams.add(stream);
      open++;
      poller.wake();
      return stream;
    },
    holdSocket(principal, close) {
      if (closed) throw AppError.of('SERVICE_UNAVAILABLE', 'graphqlShuttingDown');
      const mine = heldFor(principal, 'sockets');
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        expiry?.clear();
        mine.sockets.delete(closeOnce);
        forget(principal, mine);
      };
      const closeOnce: SocketClose = (why) => {
        release();
        close(why);
      };
      // A socket lives no longer than the token that opened it.
      const expiry = atExpiry(principal, () => closeOnce(endedBecause('expired')));
      mine.sockets.add(closeOnce);
      poller.wake();
      return { release };
    },
    openCount: () => open,
    close() {
      closed = true;
      poller.stop();
      for (const held of [...byBucket.values()]) for (const stream of [...held.streams]) stream.end();
    },
  };
}
