// The bench's latency percentiles, read from every answer. Not part of the product.

/**
 * Each answer's latency, ms as a float. autocannon's own percentiles are whole milliseconds (its
 * histogram keeps integers), so a p50 under a millisecond read as 1 and a p99 of 5 as a ratio of
 * 5 (too coarse for "p99 at most 5 × p50"), and its mean of answers under a millisecond read 0.01
 * ms. The answers' own durations, to the microsecond, are not.
 */
export class Latencies {
  #values = new Float64Array(1 << 16);
  #count = 0;

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = ms;
  }

  /** The mean (0 when nothing was answered). */
  mean(): number {
    let sum = 0;
    for (let i = 0; i < this.#count; i++) sum += this.#values[i] ?? 0;
    return this.#count === 0 ? 0 : sum / this.#count;
  }

  /** The nearest-rank percentile (0 when nothing was answered). */
  percentiles(...ps: number[]): number[] {
    const sorted = this.#values.subarray(0, this.#count).sort();
    return ps.map((p) => (this.#count === 0 ? 0 : (sorted[Math.min(this.#count - 1, Math.ceil((p / 100) * this.#count) - 1)] ?? 0)));
  }
}
