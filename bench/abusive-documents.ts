// The documents that once stalled an instance (issue 33): each must be refused at once, whatever
// the instance is doing beside it. The bench's scale run times /healthz while they are sent.

/** `query { ...F0 }` where each fragment spreads the next one twice: 2^levels visits for a walk that follows every spread. */
export function doublingChain(levels: number): string {
  let document = 'query Chain { ...F0 }\n';
  for (let i = 0; i < levels; i++) document += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${document}fragment F${levels} on Query { __typename }\n`;
}

/**
 * `levels` of fragments each spreading the next `spreads` times down to a page's count, under
 * 1,000 tokens, with a variable, so nothing worked out for one request can be reused for the next.
 */
export function wideSpreads(levels: number, spreads: number): string {
  const spread = (name: string) => Array.from({ length: spreads }, () => `...${name}`).join(' ');
  let document = `query Wide($yes: Boolean = true) { __typename @include(if: $yes) ${spread('L0')} }\n`;
  for (let i = 0; i < levels; i++) document += `fragment L${i} on Query { ${spread(`L${i + 1}`)} }\n`;
  return `${document}fragment L${levels} on Query { pets(first: 1) { totalCount } }\n`;
}

/** A tiny operation padded with a comment: once answered 200, and kept, up to the 1 MiB a body could then be. */
export function commentPadded(bytes: number): string {
  return `query Padded { __typename } # ${'x'.repeat(bytes - 64)}`;
}
