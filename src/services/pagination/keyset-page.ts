/** Contract §4.1 and §8: `limit` is 1..100, default 20. GraphQL's `first` obeys the same numbers. */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

export interface Page<T> {
  items: T[];
  /** Present when more items follow; pass it back as `cursor` (REST) or `after` (GraphQL). */
  nextCursor: string | null;
}

/** Turns `limit + 1` rows read in id order into a page: the extra row only says that a next page exists. */
export function keysetPage<Row, T>(rows: Row[], limit: number, toItem: (row: Row) => T, cursorOf: (item: T) => string): Page<T> {
  const items = rows.slice(0, limit).map(toItem);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}
