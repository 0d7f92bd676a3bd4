import zlib from 'node:zlib';
import type { BrotliOptions, InputType, ZlibOptions } from 'node:zlib';

/** What a one-call compressor returns when asked for `info`: the answer and the engine that made it. */
interface WithEngine {
  buffer: Buffer;
  engine: object;
}

/**
 * The field where a zlib engine keeps its output chunk (16 KiB unless `chunkSize` says
 * otherwise). Node's own name, not an API: if a Node release moves it, letting go does nothing,
 * and test/http/caching/releasing-zlib.test.ts fails on the memory that comes back.
 */
const OUTPUT_CHUNK_FIELD = '_outBuffer';

/**
 * A one-call compressor that lets go of its engine's output chunk once the answer is made.
 *
 * Why: each call makes an engine whose native handle outlives every scavenge (a weak handle with
 * a finalizer waits for a full collection), and the engine holds its 16 KiB output chunk, cut on
 * Node 24 from Buffer's shared 64 KiB slabs, so a kept chunk keeps its slab's other buffers too:
 * under a load of compressed answers ~32 KiB an answer piles up outside V8's heap until a full
 * collection, which V8 starts only once about 64 MB of it has built up. Measured on Node 24
 * (docs/performance.md, 2026-12-03): the bench's two br rows peaked at 235 MB RSS, 194 MB with
 * the chunk let go. The answer (a slice of the chunk, or a copy when the output took more than
 * one) keeps what it needs while it is written, and dies young.
 */
function releasing<O extends BrotliOptions | ZlibOptions>(compress: (input: InputType, options: O) => Buffer) {
  return (input: InputType, options: O): Buffer => {
    const { buffer, engine } = compress(input, { ...options, info: true }) as unknown as WithEngine;
    Reflect.set(engine, OUTPUT_CHUNK_FIELD, null);
    return buffer;
  };
}

/**
 * node:zlib as @fastify/compress uses it (its `zlib` option) for the two codings the server
 * offers (br, gzip), with the one-call compressors it picks for answers in memory letting go of
 * their output chunk. Streams (larger answers) are zlib's own: their engine lives as long as the
 * answer's stream.
 */
export const releasingZlib = {
  createBrotliCompress: zlib.createBrotliCompress,
  createGzip: zlib.createGzip,
  brotliCompressSync: releasing<BrotliOptions>(zlib.brotliCompressSync),
  gzipSync: releasing<ZlibOptions>(zlib.gzipSync),
};
