import { readFileSync } from 'node:fs';

export interface AppVersion {
  name: string;
  version: string;
}

let read: AppVersion | undefined;

/** This release's name and version, from package.json (two folders up from src/config and dist/config alike). */
export function appVersion(): AppVersion {
  read ??= JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as AppVersion;
  return read;
}
