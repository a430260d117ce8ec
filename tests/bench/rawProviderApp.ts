import express from 'express';
import { parseApiKey, secretMatches } from '../../graphql/providers/apiKeys.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import { bearerToken } from './rawSupport.js';

/**
 * The baseline: GET /public/providers/v1/provider written by hand on bare Express 4, through the
 * same driver and database as the facade. One raw SQL query (key by prefix, joined to its
 * provider), the same checks (not revoked, secret hash compared in constant time, provider
 * active), the same JSON body. No request id, no log line, no rate limiter, no GraphQL, no zod.
 */
const providerByKeyPrefix = `
  select k.secret_hash, k.revoked_at, p.is_active,
         p.id, p.name, p.booking_url, p.cancel_url, p.notification_url, p.logo_url
  from api_key k
  join provider p on p.id = k.provider_id
  where k.prefix = ?`;

interface Row {
  secret_hash: string;
  revoked_at: unknown;
  is_active: boolean | number;
  id: number;
  name: string;
  booking_url: string | null;
  cancel_url: string | null;
  notification_url: string | null;
  logo_url: string | null;
}

export function createRawProviderApp(runtime: Runtime): express.Express {
  const app = express();
  app.disable('x-powered-by');
  const connection = runtime.orm.em.getConnection();

  app.get(
    '/public/providers/v1/provider',
    asyncHandler(async (req, res, next) => {
      try {
        const token = bearerToken(req.get('authorization'));
        const parsed = token ? parseApiKey(token) : null;
        if (!parsed) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        const rows = await connection.execute<Row[]>(providerByKeyPrefix, [parsed.prefix]);
        const row = rows[0];
        if (!row || row.revoked_at != null || !secretMatches(parsed.secret, row.secret_hash)) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        if (!row.is_active) {
          res.status(403).json({ global: ['This provider is inactive'] });
          return;
        }
        res.json({
          id: Number(row.id),
          name: row.name,
          bookingUrl: row.booking_url,
          cancelUrl: row.cancel_url,
          notificationUrl: row.notification_url,
          logoUrl: row.logo_url,
        });
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}
