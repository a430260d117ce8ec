import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { Field, Int, ObjectType } from 'type-graphql';
import { asDate, asDateOrNull } from '../shared/rowValues.js';
import type { BookingStatus } from './Booking.js';

/** A booking as a provider reads it: its offer, stock, venue and beneficiary, flat. */
@ObjectType({ description: 'A booking of one of your offers, with its beneficiary.' })
export class ProviderBooking {
  @Field(() => Int) id!: number;
  @Field(() => String) token!: string;
  @Field(() => String) status!: BookingStatus;
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
}

type Row = Record<string, string | number | Date | null>;

/**
 * Bookings with everything their answer shows, in one query: a page of 50 costs one round
 * trip. Pages go by id from `firstIndex` on the (offer_id, id) index, so a deep page costs what
 * the first does.
 */
export async function readBookingViews(em: EntityManager, filters: BookingFilters): Promise<ProviderBooking[]> {
  const sql = em as SqlEntityManager;
  const knex = sql.getKnex();
  const platform = em.getPlatform();
  const query = knex('booking as b')
    .join('stock as s', 's.id', 'b.stock_id')
    .leftJoin('price_category as pc', 'pc.id', 's.price_category_id')
    .join('offer as o', 'o.id', 'b.offer_id')
    .join('venue as v', 'v.id', 'o.venue_id')
    .leftJoin('address as oa', 'oa.id', 'o.address_id')
    .leftJoin('address as va', 'va.id', 'v.address_id')
    .join('beneficiary as be', 'be.id', 'b.beneficiary_id')
    .select(
      'b.id',
      'b.token',
      'b.status',
      'b.quantity',
      'b.amount',
      'b.creation_date',
      'b.cancellation_limit_date',
      'b.offer_id',
      'b.stock_id',
      'o.name as offer_name',
      'o.ean as offer_ean',
      'o.venue_id',
      's.price_category_id',
      'pc.label as price_category_label',
      'v.public_name',
      'v.legal_name',
      knex.raw('coalesce(oa.street, va.street) as street'),
      knex.raw('coalesce(oa.city, va.city) as city'),
      knex.raw('coalesce(oa.postal_code, va.postal_code) as address_postal_code'),
      knex.raw('coalesce(oa.department_code, va.department_code) as department_code'),
      'be.email',
      'be.first_name',
      'be.last_name',
      'be.birth_date',
      'be.phone_number',
      'be.postal_code as user_postal_code',
    )
    .orderBy('b.id');
  if (filters.offerId !== undefined) query.where('b.offer_id', filters.offerId);
  if (filters.token !== undefined) query.where('b.token', filters.token);
  if (filters.providerId !== undefined) query.where('b.provider_id', filters.providerId);
  if (filters.firstIndex !== undefined) query.where('b.id', '>=', filters.firstIndex);
  if (filters.stockId != null) query.where('b.stock_id', filters.stockId);
  if (filters.priceCategoryId != null) query.where('s.price_category_id', filters.priceCategoryId);
  if (filters.status != null) query.where('b.status', filters.status);
  if (filters.beginningDatetime != null)
    query.where('s.beginning_datetime', platform.processDateProperty(filters.beginningDatetime) as never);
  if (filters.limit !== undefined) query.limit(filters.limit);
  const rows = await sql.getConnection().execute<Row[]>(query as never);
  return rows.map((row) => {
    const street = row.street as string | null;
    const city = row.city as string | null;
    const postalCode = row.address_postal_code as string | null;
    return {
      id: Number(row.id),
      token: row.token as string,
      status: row.status as BookingStatus,
      quantity: Number(row.quantity),
      price: Number(row.amount),
      creationDate: asDate(row.creation_date as string),
      confirmationDate: asDateOrNull(row.cancellation_limit_date),
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
