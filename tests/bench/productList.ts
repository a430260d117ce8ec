import { isDeepStrictEqual } from 'node:util';
import { createApp } from '../../server/app.js';
import type { EventListOptions } from './eventList.js';
import { compare, table } from './measure.js';
import { LISTED_PRODUCTS, seedProducts } from './productListData.js';
import { createRawProductListApp } from './rawProductListApp.js';
import { listen } from './servers.js';
import type { BenchTarget } from './target.js';

const PATH = `/public/offers/v1/products?limit=${LISTED_PRODUCTS}`;

export type ProductListOptions = EventListOptions;

/**
 * GET a page of 50 products with their stocks and statuses, through the facade and by hand
 * (the key, then one query for the page joined to its stocks, same connection); both answers
 * must be equal before load is sent.
 */
export async function benchProductList(
  target: BenchTarget,
  options: ProductListOptions,
  log: (line: string) => void,
): Promise<{ ratio: number; failures: number }> {
  await seedProducts(target.runtime, target.owner);
  const facade = await listen(createApp(target.runtime));
  const raw = await listen(createRawProductListApp(target.runtime));
  try {
    const headers = { authorization: `Bearer ${target.apiKey}` };
    const [facadeBody, rawBody] = await Promise.all(
      [facade, raw].map(async (server) => {
        const response = await fetch(`${server.origin}${PATH}`, { headers });
        if (response.status !== 200)
          throw new Error(`${server.origin}${PATH} answered ${response.status}: ${await response.text()}`);
        return response.json() as Promise<{ products: unknown[] }>;
      }),
    );
    if (facadeBody.products.length !== LISTED_PRODUCTS || !isDeepStrictEqual(facadeBody, rawBody)) {
      const index = facadeBody.products.findIndex((product, at) => !isDeepStrictEqual(product, rawBody.products[at]));
      const detail =
        index < 0
          ? `${facadeBody.products.length} and ${rawBody.products.length} products`
          : `first difference at ${index}:\n  facade: ${JSON.stringify(facadeBody.products[index])}\n  raw:    ${JSON.stringify(rawBody.products[index])}`;
      throw new Error(`The facade and the raw handler answer different product lists (${detail})`);
    }
    log(`GET ${PATH}: both answer the same ${LISTED_PRODUCTS} products`);
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
    log(`ratio facade/raw req/s (50 products with stocks): ${ratio.toFixed(3)}`);
    const failures = [...averages.values()].reduce((sum, figures) => sum + figures.non2xx + figures.failed, 0);
    return { ratio, failures };
  } finally {
    await Promise.all([facade.close(), raw.close()]);
  }
}
