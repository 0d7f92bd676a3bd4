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
    problems.push(`${name} must be an http(s) URL ending in /v1 (got '${raw}').`);
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
  problems.push(`${name} must be an http(s) URL (got '${raw}').`);
  return null;
}

export function origins(problems: string[], env: Env): string[] {
  const raw = env.CORS_ORIGINS ?? '';
  const list = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of list) {
    let ok = false;
    try {
      const url = new URL(origin);
      ok = ['http:', 'https:'].includes(url.protocol) && url.origin === origin;
    } catch {
      ok = false;
    }
    if (!ok) problems.push(`CORS_ORIGINS must list origins like https://app.example.com, comma-separated (got '${origin}').`);
  }
  return list;
}
