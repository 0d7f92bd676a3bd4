import { describe, expect, it } from '../helpers/fixtures.ts';
import { Latencies } from '../../bench/latencies.ts';

// The bench's p50 and p99 (bench/latencies.ts): read to the microsecond, not autocannon's whole milliseconds.

describe("the bench's latency percentiles", () => {
  it('are the nearest rank of every answer, to the microsecond, past the first buffer', () => {
    const latencies = new Latencies();
    // 100,000 answers (more than the first buffer holds), 0.001 ms to 100 ms, added out of order.
    const count = 100_000;
    for (let i = 0; i < count; i++) latencies.add((((i * 7919) % count) + 1) / 1000);
    expect(latencies.percentiles(50, 99, 100)).toEqual([50, 99, 100]);
  });

  it('tell a sub-millisecond p50 apart: 0.4 ms and 1.9 ms, not 1 and 2; the mean too', () => {
    const latencies = new Latencies();
    for (let i = 0; i < 98; i++) latencies.add(0.4);
    latencies.add(1.9);
    latencies.add(7);
    expect(latencies.percentiles(50, 99)).toEqual([0.4, 1.9]);
    expect(latencies.mean()).toBeCloseTo((98 * 0.4 + 1.9 + 7) / 100, 9);
  });

  it('are 0 when nothing was answered', () => {
    expect(new Latencies().percentiles(50, 99)).toEqual([0, 0]);
    expect(new Latencies().mean()).toBe(0);
  });
});
