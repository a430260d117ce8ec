import { SchemaMigration } from './schemaMigration.js';

/**
 * Collective offers get their full shape, with their bookings by schools and the school
 * platform's reference data (domains, national programmes, student levels, institutions).
 * Nothing ever wrote the first `collective_offer` table, so it is rebuilt.
 */
export class Migration20261122050000Collective extends SchemaMigration {
  async up(): Promise<void> {
    this.schema((schema) =>
      schema.createTable('national_program', (table) => {
        table.integer('id').primary();
        table.string('name', 140).notNullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('educational_domain', (table) => {
        table.integer('id').primary();
        table.string('name', 140).notNullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('educational_domain_program', (table) => {
        table.integer('domain_id').unsigned().notNullable().references('educational_domain.id').onDelete('cascade');
        table.integer('program_id').unsigned().notNullable().references('national_program.id').onDelete('cascade');
        table.primary(['domain_id', 'program_id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('student_level', (table) => {
        table.string('id', 40).primary();
        table.string('name', 100).notNullable();
        table.integer('position').notNullable();
      }),
    );
    this.schema((schema) =>
      schema.createTable('educational_institution', (table) => {
        table.integer('id').primary();
        table.string('uai', 8).notNullable().unique();
        table.string('name', 200).notNullable();
        table.string('institution_type', 60).notNullable();
        table.string('city', 100).notNullable();
        table.string('postal_code', 5).notNullable();
        table.boolean('is_active').notNullable();
      }),
    );
    this.schema((schema) => schema.dropTable('collective_offer'));
    this.schema((schema) =>
      schema.createTable('collective_offer', (table) => {
        table.increments('id').primary();
        table.integer('provider_id').unsigned().notNullable().references('provider.id').onDelete('cascade');
        table.integer('venue_id').unsigned().notNullable().references('venue.id').onDelete('cascade');
        table.string('name', 110).notNullable();
        table.text('description').notNullable();
        table.json('formats').notNullable();
        table.json('booking_emails').notNullable();
        table.string('contact_email', 120).notNullable();
        table.string('contact_phone', 20).notNullable();
        table.json('domains').notNullable();
        table.json('students').notNullable();
        table.json('intervention_area').notNullable();
        table.string('location_type', 20).notNullable();
        table.boolean('at_venue_address').notNullable();
        table.integer('address_id').unsigned().nullable().references('address.id').onDelete('set null');
        table.string('address_label', 200).nullable();
        table.string('location_comment', 200).nullable();
        table.timestamp('start_datetime', { useTz: true }).notNullable();
        table.timestamp('end_datetime', { useTz: true }).notNullable();
        table.timestamp('booking_limit_datetime', { useTz: true }).notNullable();
        table.integer('total_price_cents').notNullable();
        table.integer('number_of_tickets').notNullable();
        table.string('price_detail', 1000).nullable();
        table.integer('duration_minutes').nullable();
        table.integer('institution_id').unsigned().nullable().references('educational_institution.id');
        table.integer('national_program_id').unsigned().nullable().references('national_program.id');
        table.string('image_key', 80).nullable();
        table.string('image_credit', 200).nullable();
        table.boolean('audio_disability_compliant').notNullable();
        table.boolean('mental_disability_compliant').notNullable();
        table.boolean('motor_disability_compliant').notNullable();
        table.boolean('visual_disability_compliant').notNullable();
        table.boolean('is_active').notNullable();
        table.string('validation', 20).notNullable();
        table.string('validation_reason', 500).nullable();
        table.timestamp('validated_at', { useTz: true }).nullable();
        table.timestamp('archived_at', { useTz: true }).nullable();
        table.timestamp('date_created', { useTz: true }).notNullable();
        table.timestamp('date_updated', { useTz: true }).notNullable();
        table.index(['provider_id', 'id']);
        table.index(['venue_id']);
      }),
    );
    this.schema((schema) =>
      schema.createTable('collective_booking', (table) => {
        table.increments('id').primary();
        table.integer('offer_id').unsigned().notNullable().references('collective_offer.id').onDelete('cascade');
        table.integer('institution_id').unsigned().notNullable().references('educational_institution.id');
        table.string('status', 20).notNullable();
        table.timestamp('date_created', { useTz: true }).notNullable();
        table.timestamp('confirmation_limit_date', { useTz: true }).notNullable();
        table.timestamp('cancellation_limit_date', { useTz: true }).notNullable();
        table.timestamp('confirmation_date', { useTz: true }).nullable();
        table.timestamp('date_used', { useTz: true }).nullable();
        table.timestamp('cancellation_date', { useTz: true }).nullable();
        table.string('cancellation_reason', 30).nullable();
        table.timestamp('reimbursement_date', { useTz: true }).nullable();
        table.index(['offer_id', 'id']);
      }),
    );
    // At most one booking of an offer that is not cancelled: a second school booking at the same
    // moment loses on this index, whichever engine runs it.
    this.addSql(
      "create unique index collective_booking_one_active on collective_booking (offer_id) where status <> 'CANCELLED'",
    );
  }
}
