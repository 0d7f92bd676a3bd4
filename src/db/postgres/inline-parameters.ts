import pg from 'pg';

/** pg's own conversion of a parameter to its text form (dates, arrays, objects as JSON), which pg exports but does not type. */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils;

/** A parameter as an SQL literal: the text pg would have sent for it, quoted and escaped by pg, untyped as a parameter is. */
function literal(value: unknown): string {
  const text = prepareValue(value);
  if (text === null || text === undefined) return 'NULL';
  // bytea in its hex input form, which a bytea column takes from an untyped literal.
  return pg.escapeLiteral(Buffer.isBuffer(text) ? `\\x${text.toString('hex')}` : text);
}

/**
 * `sql` with each `$n` placeholder replaced by parameter n as a literal, for the simple query
 * protocol, which takes no parameters but several statements in one message. Placeholders are
 * found outside quoted strings, quoted identifiers and dollar-quoted bodies, so text that only
 * looks like one is left alone. The literal is untyped, as a parameter pg sends is: PostgreSQL
 * infers its type from where it stands, the same way.
 */
export function inlineParameters(sql: string, parameters: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // A quoted string or identifier; a doubled quote inside is an escaped one.
      let end = i + 1;
      while (end < sql.length && !(sql[end] === c && sql[end + 1] !== c)) end += sql[end] === c ? 2 : 1;
      out += sql.slice(i, end + 1);
      i = end + 1;
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      let end = i + 1;
      while (/[0-9]/.test(sql[end] ?? '')) end++;
      const index = Number(sql.slice(i + 1, end)) - 1;
      if (index < 0 || index >= parameters.length) throw new RangeError(`no parameter $${index + 1} among ${parameters.length}`);
      out += literal(parameters[index]);
      i = end;
    } else if (c === '$') {
      // A dollar-quoted body ($$ … $$ or $tag$ … $tag$) is copied whole.
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      const close = tag ? sql.indexOf(tag, i + tag.length) : -1;
      const end = tag && close >= 0 ? close + tag.length : i + 1;
      out += sql.slice(i, end);
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
