import { hash } from 'node:crypto';

/**
 * A weak entity tag (RFC 9110 §8.8.3) naming the parts an answer is a function of: the request,
 * whose it is, and the versions of the tables it was read under. Weak, because compression
 * changes the bytes but not the answer.
 */
export function entityTag(parts: readonly string[]): string {
  return tagOf(parts.join('\n'));
}

function tagOf(text: string): string {
  return `W/"${hash('sha1', text, 'base64url').slice(0, 22)}"`;
}

/**
 * `entityTag` for one caller whose parts repeat from request to request (a list's tag while its
 * tables are unchanged): the last tag is kept with what it was made of, and made again only when
 * that changes. One entry, so nothing grows.
 */
export function lastEntityTag(): (parts: readonly string[]) => string {
  let text: string | null = null;
  let tag = '';
  return (parts) => {
    const joined = parts.join('\n');
    if (joined !== text) {
      text = joined;
      tag = tagOf(joined);
    }
    return tag;
  };
}

/**
 * Whether `If-None-Match` names `tag` by weak comparison (RFC 9110 §13.1.2: W/"x" and "x" are
 * the same there), or is `*` and `exists`. A header of any other shape matches nothing.
 */
export function noneMatchHits(header: string | undefined, tag: string, exists: boolean): boolean {
  if (header === undefined) return false;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const item of header.split(',')) {
    const listed = item.trim();
    if (listed === '*') return exists;
    if ((listed.startsWith('W/') ? listed.slice(2) : listed) === opaque) return true;
  }
  return false;
}

/** Adds `field` to the reply's Vary without losing what another part (compression) put there. */
export function varyOn(current: string | string[] | number | undefined, field: string): string {
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (text.split(',').some((name) => name.trim().toLowerCase() === field.toLowerCase())) return text;
  return text ? `${text}, ${field}` : field;
}
