import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isPostgresTestRun } from '../support/database.js';
import { type ServerProcess } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * The real processes (`node dist/server/main.js` and `npm run subgraph`), with METRICS_PORT=0:
 * /metrics answers on the port each logs in 'metrics listening', never on the public port, and
 * every metric that the repository's alert rules name is one of theirs.
 */

const SECRET = 'metrics-test-signing-secret-of-32-characters';
/** Series that Prometheus makes itself for each target, not exported by any process. */
const PROMETHEUS_SERIES = new Set(['up']);

function metricsPortOf(server: ServerProcess): number {
  const line = server.jsonLines.find((fields) => fields.msg === 'metrics listening');
  expect(line?.port).toEqual(expect.any(Number));
  return line!.port as number;
}

/** The names a scrape exposes: each family of `# TYPE`, with a histogram's and a summary's series. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_count', '_sum']) names.add(name + suffix);
  }
  return names;
}

/** The metric names an expression selects, from PromQL's own grammar; a syntax error fails. */
function selectedMetrics(expr: string): string[] {
  const names: string[] = [];
  let error: string | null = null;
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) error ??= `syntax error at ${node.from}: ${expr.slice(node.from, node.from + 30)}`;
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
        names.push(expr.slice(node.from, node.to));
    },
  });
  if (error) throw new Error(error);
  return names;
}

interface Rule {
  alert: string;
  expr: string;
}

describe(`/metrics of the processes (${isPostgresTestRun() ? 'PostgreSQL' : 'SQLite'})`, () => {
  const runs = useServerRuns('provider-platform-metrics-');
  let api: ServerProcess;
  let service: ServerProcess;

  beforeAll(async () => {
    api = await runs.start({ METRICS_PORT: '0' });
    service = await runs.startSubgraph('bookings', { METRICS_PORT: '0', INTERNAL_SIGNING_SECRET: SECRET });
  }, 120_000);

  afterAll(async () => {
    await runs.killAll();
  });

  it('answers /metrics on METRICS_PORT, in the Prometheus text format, and not on the public port', async () => {
    await fetch(`${api.baseUrl}/public/no-such-route/raw-path-label-canary`);
    const scrape = await fetch(`http://127.0.0.1:${metricsPortOf(api)}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    expect(text).toMatch(
      /^platform_http_request_duration_seconds_count\{method="GET",route="unmatched",status_class="4xx"\} 1$/m,
    );
    expect(text).not.toContain('raw-path-label-canary');
    expect(text).toMatch(/^platform_database_up 1$/m);

    const onPublicPort = await fetch(`${api.baseUrl}/metrics`);
    expect(onPublicPort.status).toBe(404);
    expect(await onPublicPort.text()).not.toContain('# TYPE');
    expect(metricsPortOf(api)).not.toBe(api.port);
  });

  it('answers /metrics on a subgraph service too, with its jobs and its requests', async () => {
    const health = await fetch(`${service.baseUrl}/health`);
    expect(health.status).toBe(200);
    const text = await (await fetch(`http://127.0.0.1:${metricsPortOf(service)}/metrics`)).text();
    expect(text).toMatch(
      /^platform_http_request_duration_seconds_count\{method="GET",route="\/health",status_class="2xx"\} 1$/m,
    );
    expect(text).toMatch(/^platform_jobs_waiting\{type="bookings\.sendMessage"\} 0$/m);
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
  });

  it('names in its alert rules only metrics that a process exports', async () => {
    const file = await readFile(join(runs.projectRoot, 'ops/prometheus/alerts.yml'), 'utf8');
    const rules = (parse(file) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
    expect(rules.length).toBeGreaterThan(5);
    const exported = new Set<string>();
    for (const server of [api, service]) {
      const text = await (await fetch(`http://127.0.0.1:${metricsPortOf(server)}/metrics`)).text();
      for (const name of exportedNames(text)) exported.add(name);
    }
    const missing = rules.flatMap((rule) =>
      selectedMetrics(rule.expr)
        .filter((name) => !exported.has(name) && !PROMETHEUS_SERIES.has(name))
        .map((name) => `${rule.alert}: ${name}`),
    );
    expect(missing).toEqual([]);
    // Every rule selects something: an expression of constants alone would never fire.
    for (const rule of rules) expect(selectedMetrics(rule.expr), rule.alert).not.toEqual([]);
  });
});
