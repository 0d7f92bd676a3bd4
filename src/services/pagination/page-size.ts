/** Contract §4.1 and §8: `limit` is 1..100, default 20. GraphQL's `first` obeys the same numbers. */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

export interface Page<T> {
  items: T[];
  /** Present when more items follow; pass it back as `cursor` (REST) or `after` (GraphQL). */
  nextCursor: string | null;
}
