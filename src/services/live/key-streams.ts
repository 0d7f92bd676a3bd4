import type { Kysely } from 'kysely';
import { KEY_CHANGES_POLL_MS } from '../../db/data-version.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { refusedKeys } from '../api-keys/key-states.ts';
import type { KeyRefusal } from '../api-keys/key-states.ts';
import { EventStream } from './event-stream.ts';
import { createPoller } from './poller.ts';

/** The last event of a stream whose key stopped working, saying why. */
function endedBecause(why: KeyRefusal): AppError {
  return AppError.of('UNAUTHORIZED', why === 'revoked' ? 'graphqlRevokedWhileSubscribed' : 'graphqlDisabledWhileSubscribed');
}

/** What this registry does with a stream, whatever its events are. */
type Stoppable = Pick<EventStream<unknown>, 'end' | 'stop'>;

export interface KeyStreams {
  /** A new stream for `keyId`, within its cap; `onEnd` runs once when it ends, however it ends. */
  open<T>(keyId: number, onEnd: () => void): EventStream<T>;
  /** Streams open now, all keys together. */
  openCount(): number;
  /** Ends every stream (the server is going away); no stream opens after this. */
  close(): void;
}

export interface KeyStreamsOptions {
  /** Open streams per key in this process. */
  perKey: number;
  /** A failed check of the keys is retried at the next one. */
  onError: (error: unknown) => void;
}

/**
 * Every open stream by the key that opened it: the per-key cap, and the key's continued
 * validity. While any stream is open the keys behind them are read again every
 * KEY_CHANGES_POLL_MS, one query for all, so a key revoked or an account disabled anywhere
 * (this instance, another, the CLI) ends its streams within the bound that applies to its
 * requests, each with a last event saying why.
 */
export function createKeyStreams(db: Kysely<Database>, { perKey, onError }: KeyStreamsOptions): KeyStreams {
  const byKey = new Map<number, Set<Stoppable>>();
  let open = 0;
  let closed = false;
  const poller = createPoller({
    intervalMs: KEY_CHANGES_POLL_MS,
    active: () => byKey.size > 0,
    onError,
    async run() {
      for (const [keyId, why] of await refusedKeys(db, [...byKey.keys()])) {
        for (const stream of [...(byKey.get(keyId) ?? [])]) stream.stop(endedBecause(why));
      }
    },
  });

  return {
    open<T>(keyId: number, onEnd: () => void): EventStream<T> {
      if (closed) throw AppError.of('SERVICE_UNAVAILABLE', 'graphqlShuttingDown');
      const streams = byKey.get(keyId) ?? new Set<Stoppable>();
      if (streams.size >= perKey) {
        throw AppError.of('TOO_MANY_SUBSCRIPTIONS', 'graphqlPerKey', { max: perKey });
      }
      const stream: EventStream<T> = new EventStream<T>(() => {
        open--;
        streams.delete(stream);
        if (streams.size === 0) byKey.delete(keyId);
        onEnd();
      });
      streams.add(stream);
      open++;
      byKey.set(keyId, streams);
      poller.wake();
      return stream;
    },
    openCount: () => open,
    close() {
      closed = true;
      poller.stop();
      for (const streams of [...byKey.values()]) for (const stream of [...streams]) stream.end();
    },
  };
}
