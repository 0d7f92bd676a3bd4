import type { ColumnType, Generated, Selectable } from 'kysely';

/** Timestamps are ISO 8601 UTC strings written by the service layer, so every dialect stores the same text. */
type Timestamp = string;

export interface PetsTable {
  id: Generated<number>;
  name: string;
  category_id: number;
  status: 'available' | 'pending' | 'sold';
  created_at: ColumnType<Timestamp, Timestamp, never>;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: ColumnType<Timestamp, Timestamp, never>;
  /** Set by an operator (`petstore accounts disable`): every key of the account is refused. */
  disabled_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** Who an account is to an OpenID Connect issuer: the value of its tokens' account claim (`sub` by default). */
export interface AccountIdentitiesTable {
  issuer: string;
  subject: string;
  account_id: number;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  /** The public start of the key (`psk_` + 8 characters): how a key is found and named, never enough to use it. */
  prefix: string;
  /** What the owner calls the key (optional, set when it is made). */
  name: ColumnType<string | null, string | null | undefined, never>;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** What the key may do, space-separated (services/access-tokens/scopes.ts); null: everything. */
  scopes: ColumnType<string | null, string | null | undefined, never>;
  created_at: ColumnType<Timestamp, Timestamp, never>;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface MessagesTable {
  id: string;
  account_id: number;
  message: string;
  status: 'queued' | 'sent' | 'failed';
  created_at: ColumnType<Timestamp, Timestamp, never>;
  updated_at: Timestamp;
  attempts: Generated<number>;
  /** When a queued message is next due for delivery. */
  next_attempt_at: Timestamp | null;
  /** A worker's lease: until then no other worker may take the message. Expired leases are retaken. */
  claimed_until: Timestamp | null;
  failure_reason: string | null;
  /** The W3C traceparent of the request that queued it, for its delivery's span link; null untraced. */
  trace_parent: ColumnType<string | null, string | null | undefined, never>;
}

export interface OrdersTable {
  id: Generated<number>;
  account_id: number;
  pet_id: number;
  quantity: number;
  ship_date: Timestamp | null;
  status: 'placed' | 'approved' | 'delivered';
  created_at: ColumnType<Timestamp, Timestamp, never>;
  updated_at: Timestamp;
}

export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  /** SHA-256 of the request (route and body): the same key must come with the same request. */
  fingerprint: string;
  /** Null while the first request with this key is still being handled. */
  status_code: number | null;
  response_body: string | null;
  location: string | null;
  created_at: Timestamp;
}

/**
 * Row counts kept by triggers (migration 0008): `pets`, `pets:<status>`, `orders:<account>`,
 * `orders:<account>:<status>`. A name never written reads as 0.
 */
export interface RowCountsTable {
  name: string;
  value: number;
}

/**
 * What cached answers are keyed by (docs/caching.md), set by triggers in the writing transaction:
 * `pets`, and per account `orders:<account>` and `messages:<account>`, each a random value that
 * names one state of this database's history (migration 0011). The plain `orders` and `messages`
 * rows are 0010's counters, kept moving for the release before it.
 */
export interface TableVersionsTable {
  name: string;
  version: number | string;
}

export interface Database {
  pets: PetsTable;
  accounts: AccountsTable;
  account_identities: AccountIdentitiesTable;
  api_keys: ApiKeysTable;
  messages: MessagesTable;
  orders: OrdersTable;
  idempotency_keys: IdempotencyKeysTable;
  row_counts: RowCountsTable;
  table_versions: TableVersionsTable;
}

export type PetRow = Selectable<PetsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type OrderRow = Selectable<OrdersTable>;
