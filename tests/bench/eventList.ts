import { isDeepStrictEqual } from 'node:util';
import { createApp } from '../../server/app.js';
import { seedEvents, LISTED_EVENTS } from './eventListData.js';
import { compare, table } from './measure.js';
import { createRawEventListApp } from './rawEventApps.js';
import { listen } from './servers.js';
import type { BenchTarget } from './target.js';

const PATH = `/public/offers/v1/events?limit=${LISTED_EVENTS}`;

export interface EventListOptions {
  durationSeconds: number;
  connections: number;
  warmUpSeconds: number;
  rounds: number;
}

/**
 * GET a page of 50 events with their price categories and statuses, through the facade and
 * by hand (four queries, same connection); both answers must be equal before load is sent.
 */
export async function benchEventList(
  target: BenchTarget,
  options: EventListOptions,
  log: (line: string) => void,
): Promise<{ ratio: number; failures: number }> {
  await seedEvents(target.runtime, target.owner);
  const facade = await listen(createApp(target.runtime));
  const raw = await listen(createRawEventListApp(target.runtime));
  try {
    const headers = { authorization: `Bearer ${target.apiKey}` };
    const [facadeBody, rawBody] = await Promise.all(
      [facade, raw].map(async (server) => {
        const response = await fetch(`${server.origin}${PATH}`, { headers });
        if (response.status !== 200) throw new Error(`${server.origin}${PATH} answered ${response.status}`);
        return response.json() as Promise<{ events: unknown[] }>;
      }),
    );
    if (facadeBody.events.length !== LISTED_EVENTS || !isDeepStrictEqual(facadeBody, rawBody)) {
      throw new Error('The facade and the raw handler answer different event lists');
    }
    log(`GET ${PATH}: both answer the same ${LISTED_EVENTS} events`);
    const { averages } = await compare(
      [
        { label: 'facade', url: `${facade.origin}${PATH}` },
        { label: 'raw', url: `${raw.origin}${PATH}` },
      ],
      { ...options, headers },
      log,
    );
    log(table(averages));
    const ratio = averages.get('facade')!.requestsPerSecond / averages.get('raw')!.requestsPerSecond;
    log(`ratio facade/raw req/s (50 events with price categories): ${ratio.toFixed(3)}`);
    const failures = [...averages.values()].reduce((sum, figures) => sum + figures.non2xx + figures.failed, 0);
    return { ratio, failures };
  } finally {
    await Promise.all([facade.close(), raw.close()]);
  }
}
