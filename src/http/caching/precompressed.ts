import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noneMatchHits, varyOn } from './entity-tag.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const CODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

interface Variants {
  tag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Sends a fixed body in the coding the request prefers, with its ETag, or 304; `cacheControl` says how long it may be kept. */
export type SendPrecompressed = (req: FastifyRequest, reply: FastifyReply, cacheControl: string) => Promise<FastifyReply>;

/**
 * A body that never changes while the process runs (GraphiQL's page and its assets, megabytes
 * of editor): compressed once, off the event loop, at brotli's and gzip's best, and sent with an
 * ETag, so a browser revalidates it with a 304 and nothing is compressed per answer. The
 * plugin's per-answer compression would spend ~160 ms of CPU on every load of GraphiQL.
 */
export function precompressed(content: string | Buffer, type: string): SendPrecompressed {
  let variants: Promise<Variants> | undefined;
  const build = async (): Promise<Variants> => {
    const identity = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      gzipped(identity, { level: 9 }),
    ]);
    return { tag: `"${createHash('sha1').update(identity).digest('base64url')}"`, identity, br, gzip: gz };
  };
  return async (req, reply, cacheControl) => {
    const body = await (variants ??= build());
    // The negotiation @fastify/compress does (RFC 9110 §12.5.3, q-values, *); br first on a tie.
    const coding = negotiate(req.headers['accept-encoding'] ?? '', CODINGS) ?? 'identity';
    // Strong: each coding is its own representation, so the tag names the coding too.
    const tag = coding === 'identity' ? body.tag : `${body.tag.slice(0, -1)}-${coding}"`;
    reply
      .header('ETag', tag)
      .header('Cache-Control', cacheControl)
      .header('Vary', varyOn(reply.getHeader('vary'), 'Accept-Encoding'));
    if (noneMatchHits(req.headers['if-none-match'], tag, true)) return reply.code(304).send();
    if (coding !== 'identity') reply.header('Content-Encoding', coding);
    return reply.type(type).send(body[coding]);
  };
}
