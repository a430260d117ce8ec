import { Migration } from '@mikro-orm/migrations';

/**
 * The periodic tasks read the rows due through partial indexes, not the whole booking or offer
 * table (decision 035, found by `npm run bench -- --scale`). The same SQL on both engines.
 */
export class Migration20261201000000DueRowIndexes extends Migration {
  async up(): Promise<void> {
    this.addSql(
      "create index booking_confirmed_cancellation_limit_index on booking (cancellation_limit_date) where status = 'CONFIRMED'",
    );
    this.addSql(
      'create index booking_confirmed_product_creation_index on booking (creation_date) ' +
        "where status = 'CONFIRMED' and cancellation_limit_date is null",
    );
    this.addSql(
      'create index offer_booking_not_opened_index on offer (booking_allowed_datetime) where booking_opened_at is null',
    );
  }
}
