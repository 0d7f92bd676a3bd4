import { memo } from '../../util/memo.ts';

/** The JSON media types a GraphQL answer without a stream can take, the spec's first. */
const JSON_TYPES = ['application/graphql-response+json', 'application/json'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** The stream types: a subscription or increments need one; any other operation's one result can go out framed in one. */
const STREAM_TYPES = ['text/event-stream', 'multipart/mixed'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

/**
 * What a request may be answered with: a JSON type (and the stream type it takes too, if any, for
 * an operation only a stream can answer), only a stream, GraphiQL's page, or nothing this serves.
 */
export type Wanted =
  { kind: 'json'; type: JsonType; stream: StreamType | null } | { kind: 'stream'; type: StreamType } | { kind: 'page' } | { kind: 'none' };

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function rangesOf(accept: string): Range[] {
  const ranges: Range[] = [];
  for (const part of accept.toLowerCase().split(',')) {
    const [media = '', ...parameters] = part.split(';').map((item) => item.trim());
    const [type, subtype] = media.split('/');
    if (!type || !subtype) continue;
    const q = parameters.map((p) => /^q=([0-9.]+)$/.exec(p)?.[1]).find((value) => value !== undefined);
    ranges.push({ type, subtype, q: q === undefined ? 1 : Number(q) });
  }
  return ranges;
}

/** The q a client gives `media`: that of the most specific range naming it (RFC 9110 §12.5.1), 0 when none does. */
function qualityOf(ranges: Range[], media: string): { q: number; at: number } {
  const [type, subtype] = media.split('/');
  let best: { q: number; at: number; specificity: number } = { q: 0, at: Infinity, specificity: -1 };
  ranges.forEach((range, at) => {
    const specificity = range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : 0;
    const matches = specificity > 0 || (range.type === '*' && range.subtype === '*');
    if (matches && specificity > best.specificity) best = { q: range.q, at, specificity };
  });
  return best;
}

function negotiate(accept: string | undefined, method: string, withPage: boolean): Wanted {
  const ranges = rangesOf(accept ?? '*/*');
  // A browser opening the endpoint: GraphiQL, whatever else it would take (as Yoga decides it).
  if (withPage && method === 'GET' && ranges.some((r) => r.type === 'text' && r.subtype === 'html' && r.q > 0)) return { kind: 'page' };
  // A stream type only when named: a wildcard is answered with JSON.
  let streamType: { type: StreamType; q: number; at: number } | null = null;
  for (const type of STREAM_TYPES) {
    const at = ranges.findIndex((r) => `${r.type}/${r.subtype}` === type && r.q > 0);
    const q = at < 0 ? 0 : (ranges[at]?.q ?? 0);
    if (q > 0 && (!streamType || q > streamType.q || (q === streamType.q && at < streamType.at))) streamType = { type, q, at };
  }
  let chosen: { type: JsonType; q: number; at: number } | null = null;
  for (const type of JSON_TYPES) {
    const { q, at } = qualityOf(ranges, type);
    // Higher q wins; then the type listed first; a tie on one wildcard keeps application/json, which every client reads.
    if (q > 0 && (!chosen || q > chosen.q || (q === chosen.q && at <= chosen.at))) chosen = { type, q, at };
  }
  if (chosen) return { kind: 'json', type: chosen.type, stream: streamType?.type ?? null };
  return streamType ? { kind: 'stream', type: streamType.type } : { kind: 'none' };
}

// Clients send a handful of Accept values; an unbounded variety is not worth remembering.
const negotiated = memo((key: string): Wanted => {
  const [method, page, accept] = key.split('\n') as [string, string, string];
  return negotiate(accept === '' ? undefined : accept, method, page === '1');
}, 256);

/**
 * What a GraphQL request's Accept header takes (q-values honoured): GraphiQL's page for a
 * browser's GET, the JSON type the client prefers (GraphQL over HTTP) and whether it takes a
 * stream too, or only a stream; none of those: 406. Which of JSON and a stream answers depends
 * on the operation as well (http/answer-kind.ts).
 */
export function wantedAnswer(accept: string | undefined, method: string, withPage: boolean): Wanted {
  // A header value holds no line break, so the key splits back into its three parts.
  return negotiated(`${method}\n${withPage ? 1 : 0}\n${accept ?? ''}`);
}
