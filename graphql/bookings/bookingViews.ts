import type { EntityManager } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { asDate, asDateOrNull } from '../../platform/sql/rowValues.js';
import { selectRows } from '../../platform/sql/sqlText.js';
import { type BookingStatus, BookingStatusEnum } from './Booking.js';

/** A booking as a provider reads it: its offer, stock, venue and beneficiary, flat. */
@ObjectType({ description: 'A booking of one of your offers, with its beneficiary.' })
export class ProviderBooking {
  @Field(() => Int) id!: number;
  @Field(() => String) token!: string;
  @Field(() => BookingStatusEnum) status!: BookingStatus;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Unit price in euro cents.' }) price!: number;
  @Field(() => Date) creationDate!: Date;
  @Field(() => Date, {
    nullable: true,
    description: 'Events: the cancellation limit, after which the booking is confirmed.',
  })
  confirmationDate!: Date | null;
  @Field(() => Int) offerId!: number;
  @Field(() => String) offerName!: string;
  @Field(() => String, { nullable: true }) offerEan!: string | null;
  @Field(() => String, { nullable: true }) offerAddress!: string | null;
  @Field(() => String, { nullable: true }) offerDepartmentCode!: string | null;
  @Field(() => Int) stockId!: number;
  @Field(() => Int, { nullable: true }) priceCategoryId!: number | null;
  @Field(() => String, { nullable: true }) priceCategoryLabel!: string | null;
  @Field(() => Int) venueId!: number;
  @Field(() => String) venueName!: string;
  @Field(() => String) userEmail!: string;
  @Field(() => String, { nullable: true }) userFirstName!: string | null;
  @Field(() => String, { nullable: true }) userLastName!: string | null;
  @Field(() => String, { nullable: true }) userBirthDate!: string | null;
  @Field(() => String, { nullable: true }) userPhoneNumber!: string | null;
  @Field(() => String, { nullable: true }) userPostalCode!: string | null;
  /** Not in the graph: what the rules of a countermark read (bookingTransitions.ts). */
  offer!: { isEvent: boolean };
  cancellationLimitDate!: Date | null;
}

export interface BookingFilters {
  offerId?: number;
  token?: string;
  providerId?: number;
  firstIndex?: number;
  limit?: number;
  stockId?: number | null;
  priceCategoryId?: number | null;
  status?: BookingStatus | null;
  beginningDatetime?: Date | null;
  /** Conditions on the booking's offer `o` and its venue `v`, such as the offers a key reaches. */
  offerScope?: { where: string[]; params: unknown[] };
}

type Row = Record<string, string | number | boolean | Date | null>;

const bookingViewSelect =
  'select b.id, b.token, b.status, b.quantity, b.amount, b.creation_date, b.cancellation_limit_date, b.offer_id, ' +
  'b.stock_id, o.name as offer_name, o.ean as offer_ean, o.is_event, o.venue_id, s.price_category_id, ' +
  'pc.label as price_category_label, v.public_name, v.legal_name, ' +
  'coalesce(oa.street, va.street) as street, coalesce(oa.city, va.city) as city, ' +
  'coalesce(oa.postal_code, va.postal_code) as address_postal_code, ' +
  'coalesce(oa.department_code, va.department_code) as department_code, ' +
  'be.email, be.first_name, be.last_name, be.birth_date, be.phone_number, be.postal_code as user_postal_code ' +
  'from booking b join stock s on s.id = b.stock_id left join price_category pc on pc.id = s.price_category_id ' +
  'join offer o on o.id = b.offer_id join venue v on v.id = o.venue_id ' +
  'left join address oa on oa.id = o.address_id left join address va on va.id = v.address_id ' +
  'join beneficiary be on be.id = b.beneficiary_id';

/** The one query of `readBookingViews`: SQL text and its parameters (the bench explains its plan). */
export function bookingViewsQuery(em: EntityManager, filters: BookingFilters): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const condition = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (filters.offerId !== undefined) condition('b.offer_id = ?', filters.offerId);
  if (filters.token !== undefined) condition('b.token = ?', filters.token);
  if (filters.providerId !== undefined) condition('b.provider_id = ?', filters.providerId);
  if (filters.firstIndex !== undefined) condition('b.id >= ?', filters.firstIndex);
  if (filters.stockId != null) condition('b.stock_id = ?', filters.stockId);
  if (filters.priceCategoryId != null) condition('s.price_category_id = ?', filters.priceCategoryId);
  if (filters.status != null) condition('b.status = ?', filters.status);
  if (filters.beginningDatetime != null) {
    condition('s.beginning_datetime = ?', em.getPlatform().processDateProperty(filters.beginningDatetime));
  }
  if (filters.offerScope) {
    where.push(...filters.offerScope.where);
    params.push(...filters.offerScope.params);
  }
  let sql = `${bookingViewSelect}${where.length > 0 ? ` where ${where.join(' and ')}` : ''} order by b.id`;
  if (filters.limit !== undefined) {
    sql += ' limit ?';
    params.push(filters.limit);
  }
  return { sql, params };
}

/**
 * Bookings with everything their answer shows, in one query: a page of 50 costs one round
 * trip. Pages go by id from `firstIndex` on the (offer_id, id) index, so a deep page costs what
 * the first does.
 */
export async function readBookingViews(em: EntityManager, filters: BookingFilters): Promise<ProviderBooking[]> {
  const { sql, params } = bookingViewsQuery(em, filters);
  const rows = await selectRows<Row>(em, sql, params);
  return rows.map((row) => {
    const street = row.street as string | null;
    const city = row.city as string | null;
    const postalCode = row.address_postal_code as string | null;
    const cancellationLimitDate = asDateOrNull(row.cancellation_limit_date as string | number | Date | null);
    return {
      id: Number(row.id),
      token: row.token as string,
      status: row.status as BookingStatus,
      quantity: Number(row.quantity),
      price: Number(row.amount),
      creationDate: asDate(row.creation_date as string),
      confirmationDate: cancellationLimitDate,
      cancellationLimitDate,
      offer: { isEvent: row.is_event === true || row.is_event === 1 },
      offerId: Number(row.offer_id),
      offerName: row.offer_name as string,
      offerEan: row.offer_ean as string | null,
      offerAddress: city ? [street, `${postalCode ?? ''} ${city}`.trim()].filter(Boolean).join(', ') : null,
      offerDepartmentCode: row.department_code as string | null,
      stockId: Number(row.stock_id),
      priceCategoryId: row.price_category_id == null ? null : Number(row.price_category_id),
      priceCategoryLabel: row.price_category_label as string | null,
      venueId: Number(row.venue_id),
      venueName: (row.public_name ?? row.legal_name) as string,
      userEmail: row.email as string,
      userFirstName: row.first_name as string | null,
      userLastName: row.last_name as string | null,
      userBirthDate: row.birth_date as string | null,
      userPhoneNumber: row.phone_number as string | null,
      userPostalCode: row.user_postal_code as string | null,
    };
  });
}
