import { SchemaMigration } from './schemaMigration.js';

/** Providers, their keys, offerers, venues and addresses; the outbox; first rows of offers, bookings and collective offers. */
export class Migration20261122000000Foundation extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('provider', (table) => {
        table.increments('id').primary();
        table.string('name', 140).notNullable();
        table.string('booking_url', 2083).nullable();
        table.string('cancel_url', 2083).nullable();
        table.string('notification_url', 2083).nullable();
        table.string('logo_url', 2083).nullable();
        table.boolean('is_active').notNullable().defaultTo(true);
        table.string('messaging_secret', 128).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('offerer', (table) => {
        table.increments('id').primary();
        table.string('name', 140).notNullable();
        table.string('siren', 9).notNullable().unique();
        table.boolean('allowed_on_adage').notNullable().defaultTo(false);
        table.timestamp('created_datetime', { useTz: true }).notNullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('address', (table) => {
        table.increments('id').primary();
        table.string('ban_id', 50).nullable();
        table.string('street', 200).nullable();
        table.string('city', 200).notNullable();
        table.string('postal_code', 5).notNullable();
        table.string('insee_code', 5).nullable();
        table.string('department_code', 3).notNullable();
        table.double('latitude').notNullable();
        table.double('longitude').notNullable();
        table.boolean('is_manual_edition').notNullable().defaultTo(false);
      }),
    );
    this.schema((schema) =>
      schema.createTable('venue', (table) => {
        table.increments('id').primary();
        table.integer('offerer_id').unsigned().notNullable().references('offerer.id').onDelete('cascade');
        table.string('siret', 14).nullable().unique();
        table.string('siret_comment', 200).nullable();
        table.string('legal_name', 140).notNullable();
        table.string('public_name', 255).nullable();
        table.string('activity_domain', 50).notNullable();
        table.boolean('is_virtual').notNullable().defaultTo(false);
        table.integer('address_id').unsigned().nullable().references('address.id').onDelete('set null');
        table.boolean('audio_disability_compliant').nullable();
        table.boolean('mental_disability_compliant').nullable();
        table.boolean('motor_disability_compliant').nullable();
        table.boolean('visual_disability_compliant').nullable();
        table.timestamp('created_datetime', { useTz: true }).notNullable();
        table.index(['offerer_id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('venue_provider', (table) => {
        table.increments('id').primary();
        table.integer('venue_id').unsigned().notNullable().references('venue.id').onDelete('cascade');
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.boolean('is_active').notNullable().defaultTo(true);
        table.string('booking_url', 2083).nullable();
        table.string('cancel_url', 2083).nullable();
        table.string('notification_url', 2083).nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.unique(['venue_id', 'provider_id']);
        table.index(['provider_id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('api_key', (table) => {
        table.increments('id').primary();
        table.string('prefix', 40).notNullable().unique();
        table.string('secret_hash', 64).notNullable();
        table.integer('provider_id').unsigned().nullable().references('provider.id').onDelete('cascade');
        table.integer('offerer_id').unsigned().nullable().references('offerer.id').onDelete('cascade');
        table.boolean('is_internal').notNullable().defaultTo(false);
        table.string('label', 140).nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('revoked_at', { useTz: true }).nullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('job', (table) => {
        table.increments('id').primary();
        table.string('type', 100).notNullable();
        table.json('payload').notNullable();
        table.string('status', 10).notNullable();
        table.integer('attempts').notNullable().defaultTo(0);
        table.integer('max_attempts').notNullable().defaultTo(8);
        table.timestamp('run_at', { useTz: true }).notNullable();
        table.timestamp('locked_at', { useTz: true }).nullable();
        table.text('last_error').nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('finished_at', { useTz: true }).nullable();
        table.index(['status', 'run_at']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('offer', (table) => {
        table.increments('id').primary();
        table.string('name', 140).notNullable();
        table.integer('venue_id').unsigned().notNullable().references('venue.id').onDelete('cascade');
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.string('id_at_provider', 70).nullable();
        table.boolean('is_active').notNullable().defaultTo(true);
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.index(['provider_id', 'id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('booking', (table) => {
        table.increments('id').primary();
        table.integer('offer_id').unsigned().notNullable().references('offer.id').onDelete('cascade');
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.string('token', 6).notNullable().unique();
        table.integer('quantity').notNullable().defaultTo(1);
        table.string('status', 20).notNullable();
        table.timestamp('creation_date', { useTz: true }).notNullable();
        table.index(['provider_id', 'id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('collective_offer', (table) => {
        table.increments('id').primary();
        table.string('name', 110).notNullable();
        table.integer('venue_id').unsigned().notNullable().references('venue.id').onDelete('cascade');
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.timestamp('date_created', { useTz: true }).notNullable();
        table.index(['provider_id', 'id']);
      }),
    );
  }
}
