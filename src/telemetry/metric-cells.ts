import type { Metric, Registry } from 'prom-client';

/** A label set and its values, as prom-client's registry serializes them. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface Registered {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: 'sum' }>;
  reset(): void;
}

/** One histogram series: counts per bucket (not cumulative), sum and count. */
export class HistogramCell {
  readonly #bounds: readonly number[];
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string | number>,
    bounds: readonly number[],
  ) {
    this.#bounds = bounds;
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number): void {
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] ?? Infinity)) i++;
    if (i < bounds.length) this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.sum += value;
    this.count++;
  }
}

/** One counter series. */
export class CounterCell {
  value = 0;
  constructor(readonly labels: Record<string, string | number>) {}
  inc(by = 1): void {
    this.value += by;
  }
}

/**
 * Histograms and counters for the hot paths (every request, every statement), kept as plain
 * numbers per series: prom-client's own validate and hash the labels on every observation, which
 * cost more than the work measured. They register in prom-client's registry, which writes them
 * out in its exposition format beside its process metrics.
 */
export function histogram(
  name: string,
  help: string,
  bounds: readonly number[],
): Registered & { cell(labels: Record<string, string | number>): HistogramCell } {
  const cells: HistogramCell[] = [];
  return {
    name,
    help,
    type: 'histogram',
    cell(labels) {
      const cell = new HistogramCell(labels, bounds);
      cells.push(cell);
      return cell;
    },
    async get() {
      const values: Sample[] = [];
      for (const cell of cells) {
        let cumulative = 0;
        bounds.forEach((le, i) => {
          cumulative += cell.counts[i] ?? 0;
          values.push({ labels: { ...cell.labels, le }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { ...cell.labels, le: '+Inf' }, value: cell.count, metricName: `${name}_bucket` });
        values.push({ labels: cell.labels, value: cell.sum, metricName: `${name}_sum` });
        values.push({ labels: cell.labels, value: cell.count, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    },
    reset: () => cells.forEach((cell) => ((cell.sum = 0), (cell.count = 0), cell.counts.fill(0))),
  };
}

export function counter(name: string, help: string): Registered & { cell(labels: Record<string, string | number>): CounterCell } {
  const cells: CounterCell[] = [];
  return {
    name,
    help,
    type: 'counter',
    cell(labels) {
      const cell = new CounterCell(labels);
      cells.push(cell);
      return cell;
    },
    get: async () => ({ name, help, type: 'counter', values: cells.map((c) => ({ labels: c.labels, value: c.value })), aggregator: 'sum' }),
    reset: () => cells.forEach((cell) => (cell.value = 0)),
  };
}

/** Registers one of these in prom-client's registry, which reads a metric only through its name, type and get(). */
export function registerIn<T extends { name: string }>(registry: Registry, metric: T): T {
  // Its types name only prom-client's own classes.
  registry.registerMetric(metric as unknown as Metric);
  return metric;
}
