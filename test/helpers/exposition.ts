/** One sample of Prometheus's text format: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of an exposition, comments left out. */
export function samples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    return [{ name: match[1] ?? '', labels, value: Number(match[3]) }];
  });
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there are none). */
export function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether a series of `name` with `labels` exists at all. */
export function has(text: string, name: string, labels: Record<string, string> = {}): boolean {
  return samples(text).some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
