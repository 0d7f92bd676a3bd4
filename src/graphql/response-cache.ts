import type { FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { requestVersions } from '../http/request-versions.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';
import { entityTag } from '../http/entity-tag.ts';
import type { ResponseStore, StoredAnswer } from '../http/response-store.ts';
import type { MaybePromise } from '../services/maybe-promise.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { cacheableReads } from './cacheable-query.ts';
import { perOperation } from './per-operation.ts';
import type { DocumentParser } from './parse-document.ts';
import { regularMediaType } from './regular-media-type.ts';
import { documentText } from './plugins/use-trusted-documents.ts';
import type { TrustedDocumentsOptions } from './plugins/use-trusted-documents.ts';

/** Where one request's answer is kept, and the entity tag it is sent with over GET. */
export interface CacheSlot {
  key: string;
  tag: string;
  /** Whose answer it is: each account's share of the store is bounded. */
  accountId: number;
  /**
   * The request said `Cache-Control: no-cache` (RFC 9111 §5.2.1.4): a stored answer may not be
   * served without revalidating with the origin. The tag is the origin's own, worked out from
   * versions read now, so a matching If-None-Match still gets its 304; anything else runs.
   */
  runFresh: boolean;
  /** The request said `no-store`: nothing of its answer is kept. */
  keepNothing: boolean;
}

export interface GraphQLResponseCache {
  /**
   * The slot of a query whose answer may be kept; null for anything else (then nothing is looked
   * up). Throws UNAUTHORIZED when the versions read finds the caller's key no longer works.
   */
  slot(req: FastifyRequest): Promise<CacheSlot | null>;
  /** The kept answer, counted as a hit or a miss. */
  lookup(slot: CacheSlot): MaybePromise<StoredAnswer | undefined>;
  /** Keeps an answer without errors; the caller does not wait for it. */
  keep(slot: CacheSlot, answer: StoredAnswer): void;
}

export interface ResponseCacheOptions {
  db: Kysely<Database>;
  /** Told of a key the versions read finds no longer working. */
  verifier: KeyVerifier;
  store: ResponseStore;
  /** The trusted-documents policy Yoga applies: a request it would refuse gets no slot. */
  trusted: TrustedDocumentsOptions;
  /** Yoga's own parser (within the limits, remembered): a document over a limit gets no slot, and Yoga refuses it. */
  documents: DocumentParser;
  /** What the documents run against: where each field's reads are found. */
  schema: GraphQLSchema;
  /** The release: an answer kept by another release is never served (its shape may differ). */
  salt: string;
  metrics: Metrics;
  /** Longer answers (in characters) are not kept. */
  maxEntryBytes: number;
}

interface Params {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
  documentId?: unknown;
}

/**
 * GraphQL query answers kept per account, keyed by everything the answer is a function of:
 * the document it runs (its text, or the trusted document its id names, under the same policy
 * Yoga applies, so text refused in production never gets a slot), the operation name, the
 * variables, the negotiated media type, the caller's account and the versions of the tables
 * its root fields read. The versions are read
 * with each request (one statement, with whether the key still works), so a write
 * acknowledged on any instance, through either face, makes every answer read before it
 * unreachable at once; old answers just age out. A revoked key gets no slot, so never an answer.
 */
export function graphqlResponseCache({
  db,
  verifier,
  store,
  trusted,
  documents,
  schema,
  salt,
  metrics,
  maxEntryBytes,
}: ResponseCacheOptions): GraphQLResponseCache {
  const readsOf = perOperation((document, operationName) => cacheableReads(schema, document, operationName ?? undefined));
  return {
    async slot(req) {
      const { principal } = req;
      if (principal === null) return null;
      const params = (req.method === 'GET' ? req.query : req.body) as Params | undefined;
      if (typeof params !== 'object' || params === null) return null;
      const sent = withExtensions(params);
      const document = sent === null ? null : documentText(trusted, sent);
      const mediaType = regularMediaType(req.headers.accept);
      if (typeof document !== 'string' || mediaType === null) return null;
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      let parsed;
      try {
        parsed = documents.parse(document);
      } catch {
        return null;
      }
      const reads = readsOf(parsed, operationName);
      if (reads === null) return null;
      const versions = await requestVersions(db, verifier, req, principal);
      const variables = typeof params.variables === 'string' ? params.variables : JSON.stringify(params.variables ?? null);
      const parts = [salt, document, operationName ?? '', variables, mediaType, String(principal.accountId)];
      for (const table of reads) parts.push(`${table}:${versions[table]}`);
      const tag = entityTag(parts);
      const cacheControl = req.headers['cache-control'] ?? '';
      return {
        key: tag.slice(3, -1),
        tag,
        accountId: principal.accountId,
        runFresh: /no-cache|no-store|max-age=0/.test(cacheControl),
        keepNothing: cacheControl.includes('no-store'),
      };
    },
    async lookup(slot) {
      const answer = await store.get(slot.key);
      metrics.responseCache(answer !== undefined);
      return answer;
    },
    keep(slot, answer) {
      if (!slot.keepNothing && answer.body.length <= maxEntryBytes) void store.set(slot.key, answer, slot.accountId);
    },
  };
}

/** GET sends `extensions` as JSON text, read here as from a POST; null when it is not JSON (Yoga refuses it). */
function withExtensions(params: Params): Params | null {
  if (typeof params.extensions !== 'string') return params;
  try {
    return { ...params, extensions: JSON.parse(params.extensions) as unknown };
  } catch {
    return null;
  }
}
