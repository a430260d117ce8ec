import type { Bench } from './harness.js';
import { measureReadPair } from './harness.js';
import { LISTED_PRODUCTS, seedProducts } from './productListData.js';
import { createRawProductListApp } from './rawProductListApp.js';
import { READ_TARGET } from './targets.js';

/**
 * GET a page of 50 products with their stocks and statuses, through the facade and by hand
 * (the key, then one query for the page joined to its stocks, same connection).
 */
export const productListBench: Bench = {
  key: 'products',
  async run(context) {
    await seedProducts(context.target.runtime, context.target.owner);
    await measureReadPair(context, {
      key: this.key,
      title: `${LISTED_PRODUCTS} products with stocks`,
      path: `/public/offers/v1/products?limit=${LISTED_PRODUCTS}`,
      target: READ_TARGET,
      raw: createRawProductListApp(context.target.runtime),
      check(body) {
        const { products } = JSON.parse(body) as { products: { status: string }[] };
        if (products.length !== LISTED_PRODUCTS)
          throw new Error(`${products.length} products, expected ${LISTED_PRODUCTS}`);
        const statuses = new Map<string, number>();
        for (const { status } of products) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        return `${LISTED_PRODUCTS} products (${[...statuses].map(([status, count]) => `${status} ${count}`).join(', ')})`;
      },
    });
  },
};
