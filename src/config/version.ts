import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT, sourceRevision } from './source-revision.ts';

export interface AppVersion {
  name: string;
  version: string;
  /**
   * Which build: the source revision it was compiled from (dist/build-info.json, written by
   * `npm run build`), or this checkout's (PETSTORE_REVISION, or git); `unknown` where none says.
   * Two builds of one version differ here, so an operator sees which one each instance runs.
   */
  revision: string;
}

let read: AppVersion | undefined;

/** dist/build-info.json beside the compiled code; none when running the sources. */
function builtRevision(): string | null {
  try {
    const info = JSON.parse(readFileSync(new URL('../build-info.json', import.meta.url), 'utf8')) as { revision?: unknown };
    return typeof info.revision === 'string' ? info.revision : null;
  } catch {
    return null;
  }
}

/** This release's name, version and revision, read once. */
export function appVersion(): AppVersion {
  if (!read) {
    const { name, version } = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as { name: string; version: string };
    read = { name, version, revision: process.env.PETSTORE_REVISION || builtRevision() || sourceRevision() || 'unknown' };
  }
  return read;
}

/** What every cached answer and tag depends on besides the data: the release and the very build. */
export function buildSalt(): string {
  const { version, revision } = appVersion();
  return `${version}+${revision}`;
}
