import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { releasingZlib } from './releasing-zlib.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answers may reach COMPRESS_MIN_BYTES: only such routes carry compression's hooks. */
    largeAnswers?: boolean;
  }
}

export interface CompressionOptions {
  /** Answers shorter than this go as they are; 0 turns compression off. */
  minBytes: number;
  /** Routes of others' plugins (the docs page) that may answer large: by URL prefix. */
  largeUnder: readonly string[];
}

/**
 * br or gzip, as the client's Accept-Encoding prefers, for answers of at least `minBytes` on
 * both faces (streams of events excepted: each event must go out as it comes). Brotli at
 * quality 4 (the plugin's default): most of quality 11's saving on JSON at a fraction of its
 * CPU. Request bodies are not inflated: a compressed body is refused as it was before.
 * Measured (docs/performance.md): ~95 µs of server CPU on a 1.4 kB page of pets, more than
 * the rest of that request, to save 1.2 kB that arrive in the same first round trip anyway;
 * hence the 4 KiB default.
 */
export async function useCompression(app: FastifyInstance, { minBytes, largeUnder }: CompressionOptions): Promise<void> {
  if (minBytes === 0) return;
  // The plugin's two hooks cost every request they run on (~9 µs, even a 401): a route whose
  // answers never reach the threshold (one pet, a created record, an error, a probe) goes without.
  app.addHook('onRoute', (route) => {
    if (route.config?.largeAnswers !== true && !largeUnder.some((prefix) => route.url.startsWith(prefix))) route.compress = false;
  });
  await app.register(compress, {
    threshold: minBytes,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
    // Answers in memory up to 16 KiB (a page of 100 pets is 6-12 kB) are compressed in one call
    // (brotli: 0.1-0.2 ms on the event loop), whatever the host: the plugin's default is 8 KiB on
    // two cores and 4 KiB past them, and its stream path cost four times the CPU for a 12 kB
    // answer, and a zlib context for each answer in flight (docs/caching.md).
    syncThreshold: 16 * 1024,
    // Its one-call compressors, each letting go of zlib's 16 KiB output chunk once the answer is
    // made: otherwise every answer's chunk waits for a full collection (releasing-zlib.ts).
    zlib: releasingZlib,
    customTypes: /^(application\/(json|graphql-response\+json|openapi\+json|javascript)|text\/(html|css|javascript|plain|yaml))/,
  });
}
