import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '../../platform/metrics/index.js';
import type { Logger } from '../logger.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in the Prometheus text format, on a listener of its own: the public port never
 * serves it, and the operator decides who reaches this one (METRICS_HOST, a firewall).
 */
export async function listenForMetrics(
  metrics: Metrics,
  address: { port: number; host: string },
  logger: Logger,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(req.method === 'HEAD' ? '' : text);
      },
      (error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics: scrape failed');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('The metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: address.host }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
