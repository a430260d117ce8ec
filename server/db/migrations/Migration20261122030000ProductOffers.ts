import { SchemaMigration } from './schemaMigration.js';

/**
 * Product offers: the offer's EAN as a column (products are found by venue and EAN), the
 * catalogue of products known by EAN, and the bulk upserts by EAN with their progress.
 */
export class Migration20261122030000ProductOffers extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('offer', (table) => {
        table.string('ean', 13).nullable();
        // One offer per EAN, venue and provider; events (no EAN) are not concerned: NULLs never collide.
        table.unique(['provider_id', 'venue_id', 'ean']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('catalogue_product', (table) => {
        table.string('ean', 13).primary();
        table.string('title', 140).notNullable();
        table.string('author', 200).nullable();
        table.string('performer', 200).nullable();
        table.string('category', 50).notNullable();
        table.string('music_type', 50).nullable();
        table.boolean('compliant').notNullable();
        table.text('description').nullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('product_import', (table) => {
        table.increments('id').primary();
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.json('location').notNullable();
        table.json('items').notNullable();
        table.string('status', 10).notNullable();
        table.integer('next_index').notNullable();
        table.integer('created_count').notNullable();
        table.integer('updated_count').notNullable();
        table.integer('stocks_deleted_count').notNullable();
        table.json('rejected').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('finished_at', { useTz: true }).nullable();
        table.index(['provider_id', 'id']);
      }),
    );
  }
}
