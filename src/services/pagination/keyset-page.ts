import type { FieldNaming } from '../validation/describe-issue.ts';

/** Contract §4.1 and §8: `limit` is 1..100, default 20. GraphQL's `first` and `last` obey the same numbers. */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** Forward reads ids after the cursor (REST, GraphQL first/after); backward reads ids before it (GraphQL last/before). */
export type Direction = 'forward' | 'backward';

/**
 * What one page of a keyset list is read with, worked out once from what a client sent (its
 * limit, filter and cursor, validated and the cursor decoded): a route checks it before anything
 * else, a list reads it.
 */
export interface Listing<S extends string> {
  limit: number;
  status: S | undefined;
  /** The id the cursor names; null: from an end of the list. */
  cursorId: number | null;
  direction: Direction;
}

export interface ListingOptions {
  /** How the client named the fields, for the words of a refusal. */
  naming?: FieldNaming;
  direction?: Direction;
  /** Validated already against the list's query schema (REST's route schema is the same object): only the cursor is read. */
  validated?: boolean;
}

export interface Page<T> {
  /** Always in ascending id order, whichever way the page was read. */
  items: T[];
  /** Forward: present when more items follow; pass it back as `cursor` (REST) or `after` (GraphQL). Backward: null. */
  nextCursor: string | null;
  /** Backward: whether more items precede the page. Forward: false. */
  morePreceding: boolean;
  direction: Direction;
  /** The id of the cursor the page was read from; null when read from an end of the list. */
  cursorId: number | null;
}

/**
 * Turns `limit + 1` rows read away from the cursor (ascending forward, descending backward) into
 * a page: the extra row only says that more exist that way.
 */
export function keysetPage<Row, T>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => T,
  cursorOf: (item: T) => string,
  direction: Direction = 'forward',
  cursorId: number | null = null,
): Page<T> {
  const more = rows.length > limit;
  const kept = rows.slice(0, limit);
  const items = (direction === 'forward' ? kept : kept.reverse()).map(toItem);
  const last = items.at(-1);
  return {
    items,
    nextCursor: direction === 'forward' && more && last ? cursorOf(last) : null,
    morePreceding: direction === 'backward' && more,
    direction,
    cursorId,
  };
}
