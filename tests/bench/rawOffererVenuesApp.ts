import express from 'express';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import { flag, flagOrNull, rawCallerOf, type Row, rowValues, connectionOf } from './rawSupport.js';

/**
 * The baseline of GET /public/offers/v1/offerer_venues by hand on bare Express: the key query,
 * then one query for the venues linked to the key's provider (active links, at the key's
 * offerer's venues) with their offerer, address and the link's own URLs, grouped by offerer in
 * venue id order; through the same connection, the same JSON. No GraphQL, no zod, no limiter.
 */

function venuesSql(byOfferer: boolean): string {
  return `select v.id, v.created_datetime, v.legal_name, v.public_name, v.activity_domain, v.siret, v.siret_comment,
      v.is_virtual, v.audio_disability_compliant, v.mental_disability_compliant, v.motor_disability_compliant,
      v.visual_disability_compliant, a.street, a.city, a.postal_code,
      vp.booking_url, vp.cancel_url, vp.notification_url,
      f.id as offerer_id, f.created_datetime as offerer_created_datetime, f.name as offerer_name, f.siren,
      f.allowed_on_adage
    from venue_provider vp
    join venue v on v.id = vp.venue_id
    join offerer f on f.id = v.offerer_id
    left join address a on a.id = v.address_id
    where vp.provider_id = ? and vp.is_active = ?${byOfferer ? ' and v.offerer_id = ?' : ''}
    order by v.id`;
}
const withOfferer = venuesSql(true);
const withoutOfferer = venuesSql(false);

export function createRawOffererVenuesApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());
  app.get(
    '/public/offers/v1/offerer_venues',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller) return;
        const rows =
          caller.offererId == null
            ? await connection.execute<Row[]>(withoutOfferer, [caller.providerId, true])
            : await connection.execute<Row[]>(withOfferer, [caller.providerId, true, caller.offererId]);
        const groups = new Map<number, { offerer: object; venues: object[] }>();
        for (const row of rows) {
          const offererId = Number(row.offerer_id);
          let group = groups.get(offererId);
          if (!group) {
            group = {
              offerer: {
                id: offererId,
                createdDatetime: values.iso(row.offerer_created_datetime),
                name: row.offerer_name,
                siren: row.siren,
                allowedOnAdage: flag(row.allowed_on_adage),
              },
              venues: [],
            };
            groups.set(offererId, group);
          }
          group.venues.push({
            id: Number(row.id),
            createdDatetime: values.iso(row.created_datetime),
            location: flag(row.is_virtual)
              ? { type: 'digital' }
              : {
                  type: 'physical',
                  address: row.street ?? null,
                  city: row.city ?? null,
                  postalCode: row.postal_code ?? null,
                },
            legalName: row.legal_name,
            publicName: row.public_name,
            activityDomain: row.activity_domain,
            siret: row.siret,
            siretComment: row.siret_comment,
            accessibility: {
              audioDisabilityCompliant: flagOrNull(row.audio_disability_compliant),
              mentalDisabilityCompliant: flagOrNull(row.mental_disability_compliant),
              motorDisabilityCompliant: flagOrNull(row.motor_disability_compliant),
              visualDisabilityCompliant: flagOrNull(row.visual_disability_compliant),
            },
            bookingUrl: row.booking_url,
            cancelUrl: row.cancel_url,
            notificationUrl: row.notification_url,
          });
        }
        res.json([...groups.values()]);
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}
