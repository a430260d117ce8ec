import { Gauge } from 'prom-client';
import { METRIC_PREFIX, type Metrics } from '../../platform/metrics/index.js';

/**
 * Whether the rate limit is shared now, read at scrape time: 1 while it counts in Redis, 0 while
 * Redis does not answer and this process counts each key on its own (decision 026).
 */
export function collectRateLimitStore(metrics: Metrics, store: { readonly shared: boolean }): void {
  new Gauge({
    name: `${METRIC_PREFIX}rate_limit_shared`,
    help: '1 while the per-key rate limit counts in Redis, shared by every process; 0 while Redis does not answer and this process counts on its own',
    registers: [metrics.registry],
    collect() {
      this.set(store.shared ? 1 : 0);
    },
  });
}
