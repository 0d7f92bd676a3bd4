import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { entityTag } from '../http/entity-tag.ts';
import type { ResponseStore, StoredAnswer } from '../http/response-store.ts';
import { readVersions } from '../services/versions/index.ts';
import type { MaybePromise } from '../services/maybe-promise.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { cacheableReads } from './cacheable-query.ts';
import { regularMediaType } from './regular-media-type.ts';
import { documentIdOf } from './trusted-document-id.ts';

/** Where one request's answer is kept, and the entity tag it is sent with over GET. */
export interface CacheSlot {
  key: string;
  tag: string;
}

export interface GraphQLResponseCache {
  /** The slot of a query whose answer may be kept; null for anything else (then nothing is looked up). */
  slot(req: FastifyRequest): Promise<CacheSlot | null>;
  /** The kept answer, counted as a hit or a miss. */
  lookup(slot: CacheSlot): MaybePromise<StoredAnswer | undefined>;
  /** Keeps an answer without errors; the caller does not wait for it. */
  keep(slot: CacheSlot, answer: StoredAnswer): void;
}

export interface ResponseCacheOptions {
  db: Kysely<Database>;
  store: ResponseStore;
  trustedDocuments: ReadonlyMap<string, string> | null;
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
 * the document (and whether it came as text or as a trusted document's id, which production
 * may treat differently), the operation name, the variables, the negotiated media type, the
 * caller's account and the versions of the tables its root fields read. The versions are read
 * with each request (one statement, with whether the key still works), so a write
 * acknowledged on any instance, through either face, makes every answer read before it
 * unreachable at once; old answers just age out. A revoked key gets no slot, so never an answer.
 */
export function graphqlResponseCache({
  db,
  store,
  trustedDocuments,
  salt,
  metrics,
  maxEntryBytes,
}: ResponseCacheOptions): GraphQLResponseCache {
  return {
    async slot(req) {
      // A client asking for a fresh run (RFC 9111 §5.2.1.4) gets one, and its answer is not kept.
      if (req.principal === null || /no-cache|no-store/.test(req.headers['cache-control'] ?? '')) return null;
      const params = (req.method === 'GET' ? req.query : req.body) as Params | undefined;
      if (typeof params !== 'object' || params === null) return null;
      const source = sourceOf(params, trustedDocuments);
      const mediaType = regularMediaType(req.headers.accept);
      if (source === null || mediaType === null) return null;
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      const reads = cacheableReads(source.document, operationName);
      if (reads === null) return null;
      const versions = await readVersions(db, req.principal.keyId);
      if (versions === null) return null;
      const variables = typeof params.variables === 'string' ? params.variables : JSON.stringify(params.variables ?? null);
      const parts = [salt, source.via, source.document, operationName ?? '', variables, mediaType, String(req.principal.accountId)];
      for (const table of reads) parts.push(`${table}:${versions[table]}`);
      const tag = entityTag(parts);
      return { key: tag.slice(3, -1), tag };
    },
    async lookup(slot) {
      const answer = await store.get(slot.key);
      metrics.responseCache(answer !== undefined);
      return answer;
    },
    keep(slot, answer) {
      if (answer.body.length <= maxEntryBytes) void store.set(slot.key, answer);
    },
  };
}

/** The document a request runs and how it came; null when Yoga would refuse it or it is ambiguous. */
function sourceOf(params: Params, trusted: ReadonlyMap<string, string> | null): { via: string; document: string } | null {
  let extensions = params.extensions;
  if (typeof extensions === 'string') {
    try {
      extensions = JSON.parse(extensions) as unknown;
    } catch {
      return null;
    }
  }
  const id = documentIdOf({ documentId: params.documentId, extensions });
  if (id !== null) {
    const document = params.query == null ? trusted?.get(id) : undefined;
    return document === undefined ? null : { via: `id:${id}`, document };
  }
  return typeof params.query === 'string' ? { via: 'text', document: params.query } : null;
}
