import { waitFor } from '../helpers/webhook-receiver.ts';
import type { Prometheus, PromSample } from './prometheus.ts';

/** Requests answered per status class, summed over the instances; the balancers' probes left out. */
const BY_CLASS =
  'sum by (class) (label_replace(http_server_request_duration_seconds_count{job="petstore", http_route!~"/(healthz|readyz)"}, ' +
  '"class", "${1}xx", "http_response_status_code", "(.).."))';

const byClass = (samples: PromSample[]) => Object.fromEntries(samples.map((s) => [s.metric.class ?? '?', Number(s.value[1])]));

/** Waits until every one of `count` targets is up and was last scraped after `since` (ms): what was answered before is counted. */
export async function scrapedAfter(prometheus: Prometheus, count: number, since: number): Promise<void> {
  await waitFor(
    async () => {
      // timestamp() of a bare selector is the sample's own time (of any other expression, the query's).
      const [oldest] = await prometheus.query('min(timestamp(up{job="petstore"}))');
      const [up] = await prometheus.query('count(up{job="petstore"} == 1)');
      return Number(up?.value[1]) === count && Number(oldest?.value[1]) * 1000 > since;
    },
    60_000,
    `Prometheus to scrape all ${count} instances`,
  );
}

/**
 * Sends a known load, and reads from Prometheus what the instances counted meanwhile, per status
 * class: the increase of the request counters summed over every instance, between a scrape after
 * all went quiet and one after the load's last answer.
 */
export async function countedByPrometheus(
  prometheus: Prometheus,
  instances: number,
  send: () => Promise<number[]>,
): Promise<{ sent: Record<string, number>; counted: Record<string, number> }> {
  await scrapedAfter(prometheus, instances, Date.now() + 500);
  const before = byClass(await prometheus.query(BY_CLASS));
  const statuses = await send();
  await scrapedAfter(prometheus, instances, Date.now() + 500);
  const after = byClass(await prometheus.query(BY_CLASS));
  const sent: Record<string, number> = {};
  for (const status of statuses) sent[`${String(status)[0]}xx`] = (sent[`${String(status)[0]}xx`] ?? 0) + 1;
  // A class answered earlier in the run (304s, say) but not during this load counts 0: left out.
  const counted = Object.fromEntries(
    Object.keys({ ...after, ...sent })
      .map((cls) => [cls, (after[cls] ?? 0) - (before[cls] ?? 0)] as const)
      .filter(([cls, n]) => n !== 0 || sent[cls] !== undefined),
  );
  return { sent, counted };
}
