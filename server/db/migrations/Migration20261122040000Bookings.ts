import { SchemaMigration } from './schemaMigration.js';

/**
 * Bookings get their full shape: beneficiaries with their credit, the stock booked, the
 * countermark's life (use, cancellation, reimbursement), tickets of ticketing systems, and the
 * messages sent to providers. Nothing ever wrote the first `booking` table, so it is rebuilt.
 */
export class Migration20261122040000Bookings extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) => schema.dropTable('booking'));
    this.schema((schema) =>
      schema.createTable('beneficiary', (table) => {
        table.increments('id').primary();
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.string('email', 120).notNullable();
        table.string('first_name', 100).notNullable();
        table.string('last_name', 100).notNullable();
        table.string('birth_date', 10).notNullable();
        table.string('phone_number', 20).nullable();
        table.string('postal_code', 5).nullable();
        table.integer('credit').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.index(['provider_id', 'id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('booking', (table) => {
        table.increments('id').primary();
        table.integer('offer_id').unsigned().notNullable().references('offer.id').onDelete('cascade');
        table.integer('stock_id').unsigned().notNullable().references('stock.id').onDelete('cascade');
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.integer('beneficiary_id').unsigned().notNullable().references('beneficiary.id').onDelete('cascade');
        table.string('token', 6).notNullable().unique();
        table.integer('quantity').notNullable();
        table.integer('amount').notNullable();
        table.string('status', 20).notNullable();
        table.timestamp('creation_date', { useTz: true }).notNullable();
        table.timestamp('cancellation_limit_date', { useTz: true }).nullable();
        table.timestamp('date_used', { useTz: true }).nullable();
        table.timestamp('cancellation_date', { useTz: true }).nullable();
        table.string('cancellation_reason', 20).nullable();
        table.timestamp('reimbursement_date', { useTz: true }).nullable();
        // The list of an offer's bookings pages by id: this index serves the cursor at any depth.
        table.index(['offer_id', 'id']);
        table.index(['stock_id', 'status']);
        table.index(['provider_id', 'status']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('booking_ticket', (table) => {
        table.increments('id').primary();
        table.integer('booking_id').unsigned().notNullable().references('booking.id').onDelete('cascade');
        table.string('barcode', 200).notNullable();
        table.string('seat', 100).nullable();
        table.index(['booking_id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('provider_message', (table) => {
        table.increments('id').primary();
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.integer('booking_id').unsigned().nullable().references('booking.id').onDelete('cascade');
        table.string('kind', 30).notNullable();
        table.string('url', 2083).notNullable();
        table.text('body').notNullable();
        table.string('status', 10).notNullable();
        table.integer('attempts').notNullable();
        table.integer('last_status_code').nullable();
        table.text('last_error').nullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('sent_at', { useTz: true }).nullable();
        table.index(['booking_id']);
      }),
    );
  }
}
