import { SchemaMigration } from './schemaMigration.js';

/**
 * Individual offers get their full shape; price categories and stocks (event dates and
 * product stocks) arrive; providers get the right to manage individual offers.
 * Columns added to existing tables are nullable or defaulted, as SQLite requires; the
 * entities always write them.
 */
export class Migration20261122020000EventOffers extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.alterTable('provider', (table) => {
        table.boolean('can_manage_individual_offers').notNullable().defaultTo(true);
      }),
    );
    this.schema((schema) =>
      schema.alterTable('offer', (table) => {
        table.timestamp('updated_at', { useTz: true }).nullable();
        table.string('category', 50).notNullable().defaultTo('');
        table.boolean('is_event').notNullable().defaultTo(true);
        table.text('description').nullable();
        table.boolean('audio_disability_compliant').notNullable().defaultTo(false);
        table.boolean('mental_disability_compliant').notNullable().defaultTo(false);
        table.boolean('motor_disability_compliant').notNullable().defaultTo(false);
        table.boolean('visual_disability_compliant').notNullable().defaultTo(false);
        table.json('category_related_fields').nullable();
        table.string('booking_contact', 120).nullable();
        table.string('booking_email', 120).nullable();
        table.string('external_ticket_office_url', 2083).nullable();
        table.string('video_url', 2083).nullable();
        table.boolean('enable_double_bookings').notNullable().defaultTo(false);
        table.boolean('has_ticket').notNullable().defaultTo(false);
        table.integer('event_duration').nullable();
        table.text('item_collection_details').nullable();
        table.string('location_type', 10).notNullable().defaultTo('physical');
        table.string('url', 2083).nullable();
        table.string('address_label', 200).nullable();
        table.timestamp('publication_datetime', { useTz: true }).nullable();
        table.timestamp('booking_allowed_datetime', { useTz: true }).nullable();
        table.timestamp('published_at', { useTz: true }).nullable();
        table.timestamp('booking_opened_at', { useTz: true }).nullable();
        table.string('validation', 10).notNullable().defaultTo('PENDING');
        table.text('validation_reason').nullable();
        table.timestamp('validated_at', { useTz: true }).nullable();
        table.string('image_key', 80).nullable();
        table.string('image_credit', 200).nullable();
        table.unique(['venue_id', 'id_at_provider']);
        table.index(['validation', 'created_at']);
        table.index(['published_at', 'publication_datetime']);
      }),
    );
    // Alone in its statement: knex's SQLite alter attaches a foreign key to the wrong column
    // when other columns are added with it.
    this.schema((schema) =>
      schema.alterTable('offer', (table) => {
        table.integer('address_id').unsigned().nullable().references('address.id').onDelete('restrict');
      }),
    );
    this.schema((schema) =>
      schema.createTable('price_category', (table) => {
        table.increments('id').primary();
        table.integer('offer_id').unsigned().notNullable().references('offer.id').onDelete('cascade');
        table.string('label', 50).notNullable();
        table.integer('price').notNullable();
        table.string('id_at_provider', 70).nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.unique(['offer_id', 'id_at_provider']);
        table.index(['offer_id', 'id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('stock', (table) => {
        table.increments('id').primary();
        table.integer('offer_id').unsigned().notNullable().references('offer.id').onDelete('cascade');
        table.integer('price_category_id').unsigned().nullable().references('price_category.id').onDelete('restrict');
        table.timestamp('beginning_datetime', { useTz: true }).nullable();
        table.timestamp('booking_limit_datetime', { useTz: true }).nullable();
        table.integer('price').notNullable();
        table.integer('quantity').nullable();
        table.integer('booked_quantity').notNullable().defaultTo(0);
        table.string('id_at_provider', 70).nullable();
        table.boolean('is_deleted').notNullable().defaultTo(false);
        table.timestamp('rescheduled_at', { useTz: true }).nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('updated_at', { useTz: true }).notNullable();
        table.index(['offer_id', 'is_deleted', 'id']);
        table.index(['price_category_id']);
      }),
    );
  }
}
