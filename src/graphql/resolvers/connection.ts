import type { Page } from '../../services/pagination/keyset-page.ts';

/**
 * The Relay connection fields of a service page: every edge's cursor is the one REST
 * would put in its Link header, so cursors cross between the two surfaces.
 */
export function connectionFields<T>(cursorOf: (item: T) => string) {
  return {
    edges: (page: Page<T>) => page.items.map((node) => ({ cursor: cursorOf(node), node })),
    nodes: (page: Page<T>) => page.items,
    pageInfo: (page: Page<T>) => {
      const last = page.items.at(-1);
      return { hasNextPage: page.nextCursor !== null, endCursor: last ? cursorOf(last) : null };
    },
  };
}
