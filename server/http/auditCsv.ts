import type { RequestHandler } from 'express';
import { exportAuditEntries, auditFilterQueryRule } from '../../graphql/providers/staff/auditTrail.js';
import { requireRole } from '../../graphql/shared/internalOnly.js';
import { checkInput } from '../../graphql/shared/validation.js';
import { csvRecord } from '../../platform/audit/index.js';
import { isoText } from '../../platform/time/moments.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import type { Runtime } from '../runtime.js';
import type { KeySessionOfPages } from './keySession.js';

/** Where the back office's audit screen downloads its entries, with the screen's filters in the query. */
export const AUDIT_CSV_PATH = '/backoffice/audit.csv';

const COLUMNS = [
  'id',
  'created_at',
  'actor_kind',
  'actor_key_prefix',
  'actor_label',
  'actor_subject',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'request_id',
];

/**
 * The audit trail as CSV, for a signed-in back-office session (without one: the sign-in page,
 * which comes back here). Bad filters are a 422 before anything is written; the entries are
 * read and written a page at a time.
 */
export function auditCsv(runtime: Runtime): RequestHandler {
  return asyncHandler(async (req, res) => {
    const caller = (res.locals.backOffice as KeySessionOfPages | undefined)?.caller;
    if (!caller) {
      res.redirect(`/backoffice/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    requireRole(caller, 'admin', 'read the audit trail');
    checkInput(auditFilterQueryRule, req.query);
    const filter = auditFilterQueryRule.parse(req.query);
    const day = isoText(runtime.clock.now()).slice(0, 10);
    res.status(200);
    res.type('text/csv; charset=utf-8');
    res.set({
      'Content-Disposition': `attachment; filename="audit-${day}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.write(csvRecord(COLUMNS));
    for await (const rows of exportAuditEntries(runtime.orm.em.fork(), filter)) {
      const text = rows.map(({ entry, actorLabel }) =>
        csvRecord([
          entry.id,
          isoText(entry.createdAt),
          entry.actorKind,
          entry.actorKeyPrefix,
          actorLabel,
          entry.actorSubject,
          entry.actorEmail,
          entry.action,
          entry.targetType,
          entry.targetId,
          entry.beforeValues,
          entry.afterValues,
          entry.requestId,
        ]),
      );
      res.write(text.join(''));
    }
    res.end();
  });
}
