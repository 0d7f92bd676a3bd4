/** The JSON media types a GraphQL answer without a stream can take. */
const REGULAR_TYPES = ['application/graphql-response+json', 'application/json'] as const;
export type RegularType = (typeof REGULAR_TYPES)[number];

/**
 * Yoga's content negotiation (use-result-processor.ts) for an Accept header that names only
 * JSON types without parameters: the first listed type that a JSON answer matches wins.
 * Null for anything else, which Yoga negotiates itself.
 */
export function regularMediaType(accept: string | undefined): RegularType | null {
  const key = accept ?? '';
  let known = negotiated.get(key);
  if (known === undefined) {
    known = negotiate(accept);
    // Clients send a handful of Accept values; an unbounded variety is not worth remembering.
    if (negotiated.size < 64) negotiated.set(key, known);
  }
  return known;
}
const negotiated = new Map<string, RegularType | null>();

function negotiate(accept: string | undefined): RegularType | null {
  const asked = (accept ?? '*/*').replace(/\s/g, '').toLowerCase().split(',');
  let chosen: RegularType | null = null;
  for (const type of asked.reverse()) {
    const [pre, suf] = type.split('/');
    if (suf === undefined || type.includes(';')) return null;
    const matches = REGULAR_TYPES.filter((own) => {
      const [ownPre, ownSuf] = own.split('/');
      return (pre === '*' || pre === ownPre) && (suf === '*' || suf === ownSuf);
    });
    if (matches.length === 0) return null;
    chosen = matches[matches.length - 1] as RegularType;
  }
  return chosen;
}
