/**
 * The gateway calls nothing outside the platform: @apollo/gateway's own usage metrics (sent to
 * Apollo, labelled by probing cloud metadata addresses) stay off unless an operator turns them on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../graphql/gateway.js';
import { buildGraph } from '../../graphql/graph.js';

const VARIABLE = 'APOLLO_TELEMETRY_DISABLED';
const saved = process.env[VARIABLE];

afterEach(() => {
  if (saved === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = saved;
});

/** What the gateway disposes of when it stops: its metrics exporter, when it made one. */
function disposables(gateway: ReturnType<typeof createGateway>): unknown[] {
  return (gateway as unknown as { toDispose: unknown[] }).toDispose;
}

describe('the gateway', () => {
  it('starts no metrics exporter of its own when the operator said nothing', () => {
    delete process.env[VARIABLE];
    const gateway = createGateway(buildGraph());
    expect(process.env[VARIABLE]).toBe('true');
    expect(disposables(gateway)).toEqual([]);
  });
});
