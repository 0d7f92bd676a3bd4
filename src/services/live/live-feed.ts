import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { AppError } from '../../errors/index.ts';
import { getMessage, getMessages } from '../messages/index.ts';
import type { Message } from '../messages/index.ts';
import { lastPetId, petsCreatedAfter } from '../pets/index.ts';
import type { Pet, PetStatus } from '../pets/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import type { Principal } from '../principal.ts';
import type { EventStream } from './event-stream.ts';
import { createKeyStreams } from './key-streams.ts';
import type { KeyStreams } from './key-streams.ts';
import { createPoller } from './poller.ts';

export interface LiveFeedOptions {
  /** How often the database is read while anyone subscribes. */
  pollMs: number;
  /** Open subscriptions per credential in this process. */
  perKey: number;
  /** A failed read is retried at the next poll; this says so once per outage. */
  onError: (error: unknown) => void;
}

export interface LiveFeed {
  /** Pets committed from now on, those of `status` only when given. */
  petCreated(principal: Principal, status: PetStatus | undefined): Promise<AsyncIterableIterator<Pet | AppError>>;
  /** The message as it is now, then each change, ending after a final status. MESSAGE_NOT_FOUND for another account's. */
  messageUpdated(principal: Principal, id: string, naming?: FieldNaming): Promise<AsyncIterableIterator<Message | AppError>>;
  /** A WebSocket the credential keeps open, within its cap (key-streams.ts); closed, saying why, when the credential stops working. */
  holdSocket: KeyStreams['holdSocket'];
  /**
   * A stream of another face's own events (MCP's subscriptions/listen), within the credential's
   * cap of subscriptions, stopped saying why when the credential stops working, ended at shutdown.
   */
  openStream: KeyStreams['open'];
  /** Subscriptions open on this instance. */
  openCount(): number;
  /** Ends every stream (the server is going away); subscribers see a normal end and may subscribe elsewhere. */
  close(): void;
}

const BATCH = 100;
const isFinal = (message: Message) => message.status !== 'queued';
const versionOf = (message: Message) => `${message.status}|${message.attempts}|${message.updatedAt}`;

/**
 * Live updates with the database as the event log: while anyone subscribes, this process reads
 * what was committed since its last read, every `pollMs`, in one query per kind for all its
 * subscribers. Nothing is announced before it commits or lost if an instance dies, and every
 * instance on one PostgreSQL sees every instance's writes.
 */
export function createLiveFeed(db: Kysely<Database>, { pollMs, perKey, onError }: LiveFeedOptions): LiveFeed {
  const streams = createKeyStreams(db, { perKey, onError });
  const petWatchers = new Set<{ stream: EventStream<Pet>; status: PetStatus | undefined }>();
  const messageWatchers = new Map<string, Set<{ stream: EventStream<Message>; version: string }>>();
  let petCursor: number | null = null;

  async function readPets(): Promise<void> {
    if (petWatchers.size === 0 || petCursor === null) return;
    for (let pets = await petsCreatedAfter(db, petCursor, BATCH); pets.length > 0; pets = await petsCreatedAfter(db, petCursor, BATCH)) {
      for (const pet of pets) for (const w of petWatchers) if (w.status === undefined || w.status === pet.status) w.stream.push(pet);
      petCursor = pets.at(-1)?.id ?? petCursor;
      if (pets.length < BATCH) break;
    }
  }

  async function readMessages(): Promise<void> {
    if (messageWatchers.size === 0) return;
    for (const message of await getMessages(db, [...messageWatchers.keys()])) {
      for (const w of messageWatchers.get(message.id) ?? []) {
        if (w.version === versionOf(message)) continue;
        w.version = versionOf(message);
        w.stream.push(message);
        if (isFinal(message)) w.stream.end();
      }
    }
  }

  const poller = createPoller({
    intervalMs: pollMs,
    active: () => petWatchers.size > 0 || messageWatchers.size > 0,
    onError,
    run: async () => void (await Promise.all([readPets(), readMessages()])),
  });

  return {
    async petCreated(principal, status) {
      const watcher = {
        status,
        stream: streams.open<Pet>(principal, () => {
          petWatchers.delete(watcher);
          if (petWatchers.size === 0) petCursor = null;
        }),
      };
      try {
        petCursor ??= await lastPetId(db);
      } catch (error) {
        watcher.stream.end();
        throw error;
      }
      petWatchers.add(watcher);
      poller.wake();
      return watcher.stream;
    },

    async messageUpdated(principal, id, naming) {
      const current = await getMessage(db, principal.accountId, id, naming);
      const watchers = messageWatchers.get(id) ?? new Set();
      const watcher = {
        version: versionOf(current),
        stream: streams.open<Message>(principal, () => {
          watchers.delete(watcher);
          if (watchers.size === 0 && messageWatchers.get(id) === watchers) messageWatchers.delete(id);
        }),
      };
      watcher.stream.push(current);
      if (isFinal(current)) {
        watcher.stream.end();
        return watcher.stream;
      }
      watchers.add(watcher);
      messageWatchers.set(id, watchers);
      poller.wake();
      return watcher.stream;
    },

    holdSocket: streams.holdSocket,
    openStream: (principal, onEnd) => streams.open(principal, onEnd),
    openCount: streams.openCount,
    close() {
      poller.stop();
      streams.close();
    },
  };
}
