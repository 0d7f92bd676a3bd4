import type { StreamType } from './negotiate.ts';

/** The JSON type whose status rules each stream follows, as Yoga's processors do (SSE: application/json's). */
export const STATUS_RULES_OF: Record<StreamType, 'application/json' | 'application/graphql-response+json'> = {
  'text/event-stream': 'application/json',
  'multipart/mixed': 'application/graphql-response+json',
};

/**
 * One GraphQL result as the stream a client that reads only streams expects, whole: GraphQL
 * over SSE's `next` and `complete` events (with the opening comment some browsers need to see
 * the headers), or one multipart/mixed part and the closing boundary. Byte for byte what Yoga's
 * stream processors write for a single result, so a client cannot tell which path answered.
 */
export function frameAnswer(type: StreamType, json: string): { contentType: string; body: string } {
  if (type === 'text/event-stream') {
    return { contentType: 'text/event-stream', body: `:\n\nevent: next\ndata: ${json}\n\nevent: complete\ndata:\n\n` };
  }
  const length = Buffer.byteLength(json);
  return {
    contentType: 'multipart/mixed; boundary="-"',
    body: `\r\n---\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${length}\r\n\r\n${json}\r\n-----\r\n`,
  };
}
