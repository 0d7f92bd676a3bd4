import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Listing, ListingOptions } from '../services/pagination/keyset-page.ts';
import { requestNaming } from '../http/errors/field-naming.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** A list route's page, as its query asks for it: worked out once, by the route's own preHandler (decided-listing.ts). */
    listing: Listing<string> | null;
  }
}

/**
 * A keyset list route's query, read once: its preHandler works out the page asked for (the
 * cursor decoded; a bad one refused INVALID_CURSOR) before anything else reads the request, the
 * conditional GET included (its hooks run after the route's own), and the handler reads that
 * page. Fastify has validated the query against the list's schema, which is the service's own.
 */
export function decidedListing<S extends string, Q>(read: (query: Q, options: ListingOptions) => Listing<S>) {
  return {
    preHandler(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
      try {
        request.listing = read(request.query as Q, { naming: requestNaming('querystring'), validated: true });
      } catch (error) {
        return done(error as Error);
      }
      done();
    },
    /** The page the preHandler worked out. */
    of(request: FastifyRequest): Listing<S> {
      return request.listing as Listing<S>;
    },
  };
}
