import { unwatchFile, watchFile } from 'node:fs';
import { readManifest } from './trusted-documents.ts';

export interface ManifestChange {
  /** Document ids the new manifest has and the old had not, and the other way round. */
  added: string[];
  removed: string[];
}

export interface WatchManifestOptions {
  /** How often the file's modification time is read (a rename over it, as deploys do, counts). */
  pollMs: number;
  /** The manifest changed and is now in effect. */
  onReloaded: (change: ManifestChange) => void;
  /** The file changed but is no manifest (not JSON, an id not its document's hash): the old one stays. */
  onRefused: (problem: string) => void;
}

export interface ManifestWatch {
  /** Reads the file again now (SIGHUP); true if the manifest changed. */
  reload(): boolean;
  close(): void;
}

/**
 * Keeps `documents` (the server's one manifest map, which the GraphQL face and MCP read) in step
 * with the file at `path`: when its modification time changes, or on `reload()`, the file is read
 * and checked as at start, and a good manifest replaces the map's entries at once (synchronously:
 * no request sees half of each). A broken one is refused and the old manifest kept.
 */
export function watchManifest(
  path: string,
  documents: Map<string, string>,
  { pollMs, onReloaded, onRefused }: WatchManifestOptions,
): ManifestWatch {
  const reload = (): boolean => {
    const read = readManifest(path);
    if (!(read instanceof Map)) {
      onRefused(read.problem);
      return false;
    }
    const added = [...read.keys()].filter((id) => !documents.has(id));
    const removed = [...documents.keys()].filter((id) => !read.has(id));
    if (added.length === 0 && removed.length === 0) return false;
    documents.clear();
    for (const [id, text] of read) documents.set(id, text);
    onReloaded({ added, removed });
    return true;
  };
  const changed = (now: { mtimeMs: number }, before: { mtimeMs: number }) => {
    if (now.mtimeMs !== before.mtimeMs) reload();
  };
  watchFile(path, { interval: pollMs, persistent: false }, changed);
  return { reload, close: () => unwatchFile(path, changed) };
}
