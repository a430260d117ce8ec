import { bookingEntities } from './bookings/index.js';
import { collectiveEntities } from './collective/index.js';
import { offerEntities } from './offers/index.js';
import { providerEntities } from './providers/index.js';
import { Job } from '../platform/jobs/Job.js';
import { JobWorkerPresence } from '../platform/jobs/JobWorkerPresence.js';
import { IdempotencyRecord } from '../platform/idempotency/IdempotencyRecord.js';
import { RequestLogBody } from '../platform/requestLog/RequestLogBody.js';
import { RequestLogEntry } from '../platform/requestLog/RequestLogEntry.js';
import { AuditEntry } from '../platform/audit/AuditEntry.js';

/** Every persisted class, for the ORM. */
export const allEntities = [
  ...providerEntities,
  ...offerEntities,
  ...bookingEntities,
  ...collectiveEntities,
  Job,
  JobWorkerPresence,
  IdempotencyRecord,
  RequestLogEntry,
  RequestLogBody,
  AuditEntry,
];
