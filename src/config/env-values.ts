import { isIP } from 'node:net';
import { withoutCredentials } from './without-credentials.ts';

/**
 * Readers for one environment variable each: the value, or the fallback when unset or empty.
 * A bad value is reported into `problems` (so every problem is told at once) and the fallback
 * is returned, never thrown.
 */
export type Env = Record<string, string | undefined>;

export function baseUrl(problems: string[], env: Env, name: string, fallback: string | null): string | null {
  const raw = env[name] ?? fallback;
  if (raw === null || raw === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.pathname.replace(/\/$/, '').endsWith('/v1')) {
    problems.push(`${name} must be an http(s) URL ending in /v1 (got '${withoutCredentials(raw)}').`);
    return null;
  }
  return raw.replace(/\/$/, '');
}

export function flag(problems: string[], env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  problems.push(`${name} must be true or false (got '${raw}').`);
  return fallback;
}

/** One of a few words, e.g. SIGNUP=open|off. */
export function oneOf<T extends string>(problems: string[], env: Env, name: string, words: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((words as readonly string[]).includes(raw)) return raw as T;
  problems.push(`${name} must be one of ${words.join(', ')} (got '${raw}').`);
  return fallback;
}

export function integer(problems: string[], env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}').`);
    return fallback;
  }
  return value;
}

export function httpUrl(problems: string[], env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  try {
    if (['http:', 'https:'].includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be an http(s) URL (got '${withoutCredentials(raw)}').`);
  return null;
}

export function origins(problems: string[], env: Env): string[] {
  const raw = env.CORS_ORIGINS ?? '';
  const list = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of list) {
    const url = URL.parse(origin);
    const ok = url !== null && ['http:', 'https:'].includes(url.protocol) && url.origin === origin;
    if (!ok)
      problems.push(`CORS_ORIGINS must list origins like https://app.example.com, comma-separated (got '${withoutCredentials(origin)}').`);
  }
  return list;
}

export function redisConfig(problems: string[], env: Env): { url: string; keyPrefix: string } | null {
  const url = env.REDIS_URL;
  if (url === undefined || url === '') return null;
  if (!/^rediss?:\/\/[^/]/.test(url)) {
    problems.push('REDIS_URL must be redis://[user:password@]host[:port][/db] (or rediss://).');
    return null;
  }
  return { url, keyPrefix: env.REDIS_KEY_PREFIX || 'petstore:' };
}

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: unset or `false` (off), or the proxies' addresses and CIDRs
 * (`10.0.0.0/8,127.0.0.1`; `loopback`, `linklocal`, `uniquelocal` name those ranges).
 * A hop count is refused: it believes whatever the nearest peer says, so a client that reaches
 * the server directly could forge its address (Fastify 5.12 disables it for the same reason).
 */
export function trustProxy(problems: string[], env: Env): false | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (/^([0-9]+|true)$/.test(raw)) {
    problems.push(
      `TRUST_PROXY=${raw} would believe X-Forwarded-For from any peer, so a client reaching the server directly could forge its address; list the proxies' addresses instead (e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback).`,
    );
    return false;
  }
  const list = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = list.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0 || list.length === 0) {
    problems.push(`TRUST_PROXY must be false or comma-separated addresses or CIDRs of the proxies (got '${raw}').`);
    return false;
  }
  return list;
}
