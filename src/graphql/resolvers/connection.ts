import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { Direction, Page } from '../../services/pagination/keyset-page.ts';
import { argumentNaming, LIST_ARGUMENTS } from '../argument-naming.ts';
import type { FieldNaming } from '../../services/validation/describe-issue.ts';
import { reading } from './reading.ts';
import type { Reads } from './reading.ts';

/** What PageInfo's fields are read from: the two flags may need a query, run only when selected. */
export interface PageInfo {
  startCursor: string | null;
  endCursor: string | null;
  hasNextPage: () => Promise<boolean>;
  hasPreviousPage: () => Promise<boolean>;
}

export interface PagingArguments {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** The service's list query for Relay's arguments: forward with first/after, backward with last/before. */
export interface PageRequest {
  query: { limit: number | undefined; cursor: string | undefined };
  naming: FieldNaming;
  direction: Direction;
}

const BACKWARD_ARGUMENTS = argumentNaming({ limit: 'last', cursor: 'before' });

/** An explicit `first: null` is refused as REST refuses `limit=`; only an absent argument takes the default. */
export function pageRequest({ first, after, last, before }: PagingArguments): PageRequest {
  const forward = first !== undefined || after != null;
  const backward = last !== undefined || before != null;
  if (forward && backward) {
    throw AppError.of('VALIDATION_FAILED', 'graphqlPageDirection');
  }
  // A null limit goes on to the service's validator, which refuses it in the client's words.
  return backward
    ? { query: { limit: last as number | undefined, cursor: before ?? undefined }, naming: BACKWARD_ARGUMENTS, direction: 'backward' }
    : { query: { limit: first as number | undefined, cursor: after ?? undefined }, naming: LIST_ARGUMENTS, direction: 'forward' };
}

/**
 * The Relay connection fields of a service page: every edge's cursor is the one REST would put
 * in its Link header, so cursors cross between the two surfaces. `anyBehind` answers whether
 * items lie behind the cursor the page was read from (the flag for the side the client came from).
 */
export function connectionFields<T, P extends Page<T>>(
  cursorOf: (item: T) => string,
  anyBehind: (db: Kysely<Database>, page: P) => Promise<boolean>,
  /** What `anyBehind` reads: the list's own table. */
  listReads: Reads,
) {
  return {
    edges: reading([], (page: P) => page.items.map((node) => ({ cursor: cursorOf(node), node }))),
    nodes: reading([], (page: P) => page.items),
    pageInfo: reading(listReads, (page: P, _args: unknown, { db }: { db: Kysely<Database> }): PageInfo => {
      const [first] = page.items;
      const last = page.items.at(-1);
      const forward = page.direction === 'forward';
      return {
        startCursor: first ? cursorOf(first) : null,
        endCursor: last ? cursorOf(last) : null,
        hasNextPage: forward ? async () => page.nextCursor !== null : () => anyBehind(db, page),
        hasPreviousPage: forward ? () => anyBehind(db, page) : async () => page.morePreceding,
      };
    }),
  };
}

/** The flags run what their connection's pageInfo made (its reads are declared there). */
export const pageInfoResolvers = {
  hasNextPage: reading([], (info: PageInfo) => info.hasNextPage()),
  hasPreviousPage: reading([], (info: PageInfo) => info.hasPreviousPage()),
};
