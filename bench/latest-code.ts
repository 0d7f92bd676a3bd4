/**
 * `--perf-basic-prof`'s symbol map (`/tmp/perf-<pid>.map`, a line `start size name` each time
 * V8 makes code) with each address range named by the code that last held it. Code made at start
 * (ajv's schema compilers, Fastify's routes being built) is freed and its addresses reused, and
 * the map keeps both entries; given overlapping entries, perf may name a sample taken under load
 * after the code that was there at start: 3% of a REST list was once shown in ajv's code
 * generator, which never ran under the load. perf attaches after the warm-up, so the last entry
 * for an address is the one its samples ran.
 */
export function latestCode(map: string): string {
  const lines = map.split('\n').filter((line) => line !== '');
  // Ranges already named by a later entry: sorted by start, disjoint.
  const starts: number[] = [];
  const ends: number[] = [];
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const [startText, sizeText] = line.split(' ', 2);
    const start = Number.parseInt(startText ?? '', 16);
    const end = start + Number.parseInt(sizeText ?? '', 16);
    if (!Number.isFinite(end)) continue;
    // The later range starting last before `end` is the only one that can reach into this one.
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] as number) < end) low = middle + 1;
      else high = middle;
    }
    if (low > 0 && (ends[low - 1] as number) > start) continue;
    starts.splice(low, 0, start);
    ends.splice(low, 0, end);
    kept.push(line);
  }
  return `${kept.reverse().join('\n')}\n`;
}
