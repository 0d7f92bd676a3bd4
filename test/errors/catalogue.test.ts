import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { errorCatalogue, errorMessage } from '../../src/errors/index.ts';
import type { ErrorCode } from '../../src/errors/index.ts';

const src = new URL('../../src/', import.meta.url);
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts') && !path.startsWith('errors/') && !path.includes('__generated__'))
  .map((path) => readFileSync(new URL(path, src), 'utf8'))
  .join('\n');

/** `CODE.name` for each message a raise site in src/ names: AppError.of's (every name its second argument can be), a plain AppError's default. */
function raised(): Set<string> {
  const found = new Set<string>();
  for (const [, code, argument] of sources.matchAll(/AppError\.of\(\s*'(\w+)',\s*([^,)]+)/g)) {
    // The name, or each name a conditional picks (`busy ? 'databaseBusy' : 'databaseUnavailable'`).
    for (const [, name] of (argument ?? '').matchAll(/(?:^|[?:])\s*'(\w+)'/g)) found.add(`${code}.${name}`);
  }
  for (const [, code, name] of sources.matchAll(/errorMessage\(\s*'(\w+)',\s*'(\w+)'/g)) found.add(`${code}.${name}`);
  for (const [, code] of sources.matchAll(/new AppError\(\s*'(\w+)'/g)) found.add(`${code}.default`);
  return found;
}

/**
 * `CODE.name` for each message the balancers in deploy/ answer with themselves: an Error body
 * written out whole (code, message, status, in that order) in both HAProxy's and nginx's file.
 */
function saidByBalancers(): Set<string> {
  const files = ['haproxy.cfg', 'nginx.conf'].map((file) => readFileSync(new URL(`../../deploy/${file}`, import.meta.url), 'utf8'));
  const found = new Set<string>();
  for (const [code, { status, messages }] of Object.entries(errorCatalogue)) {
    for (const [name, words] of Object.entries(messages)) {
      const body = JSON.stringify({ code, message: words, status });
      if (files.every((file) => file.includes(body))) found.add(`${code}.${name}`);
    }
  }
  return found;
}

const catalogued = Object.entries(errorCatalogue).flatMap(([code, { messages }]) => Object.keys(messages).map((name) => `${code}.${name}`));

describe('the error catalogue', () => {
  it('holds only words the server or its balancers say: every message is raised somewhere, and nothing is raised that it lacks', () => {
    const used = new Set([...raised(), ...saidByBalancers()]);
    expect(catalogued.filter((message) => !used.has(message))).toEqual([]);
    expect([...used].filter((message) => !catalogued.includes(message))).toEqual([]);
  });

  it('fills every placeholder where the error is raised', () => {
    for (const [code, { messages }] of Object.entries(errorCatalogue)) {
      for (const [name, template] of Object.entries(messages)) {
        const names = [...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '');
        const filled = errorMessage(code as ErrorCode, name, Object.fromEntries(names.map((n) => [n, `<${n}>`])));
        expect(filled, `${code}.${name}`).not.toMatch(/\{\{|\}\}/);
        for (const n of names) expect(filled).toContain(`<${n}>`);
      }
    }
  });

  it('sends the default UNAUTHORIZED words to a request with no key, on both faces', async ({ t }) => {
    const words = errorMessage('UNAUTHORIZED', 'default');
    expect((await t.app.inject({ url: '/v1/pets' })).json()).toEqual({ code: 'UNAUTHORIZED', message: words, status: 401 });
    const { body } = await graphql(t, '{ pets { nodes { id } } }', undefined, {});
    expect(body.errors?.[0]).toMatchObject({ message: words, extensions: { code: 'UNAUTHORIZED', status: 401 } });
  });

  it('gives the balancers’ own refusals (messages named balancer…) to both HAProxy and nginx, word for word', () => {
    const balancers = catalogued.filter((message) => message.split('.')[1]?.startsWith('balancer'));
    expect(balancers.sort()).toEqual([
      'BAD_GATEWAY.balancerInstanceFailed',
      'GATEWAY_TIMEOUT.balancerTimeout',
      'SERVICE_UNAVAILABLE.balancerNoInstance',
    ]);
    expect([...saidByBalancers()].sort()).toEqual(balancers.sort());
  });
});
