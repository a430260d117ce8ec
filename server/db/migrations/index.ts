import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './Migration20261122000000Foundation.js';
import { Migration20261122010000AddressLookupKey } from './Migration20261122010000AddressLookupKey.js';
import { Migration20261122020000EventOffers } from './Migration20261122020000EventOffers.js';
import { Migration20261122030000ProductOffers } from './Migration20261122030000ProductOffers.js';
import { Migration20261122040000Bookings } from './Migration20261122040000Bookings.js';
import { Migration20261122050000Collective } from './Migration20261122050000Collective.js';
import { Migration20261125000000PrimaryKeysNotNull } from './Migration20261125000000PrimaryKeysNotNull.js';
import { Migration20261126000000BackOffice } from './Migration20261126000000BackOffice.js';
import { Migration20261128000000OfferAccessibilityUnknown } from './Migration20261128000000OfferAccessibilityUnknown.js';
import { Migration20261128010000IdempotencyKeys } from './Migration20261128010000IdempotencyKeys.js';
import { Migration20261128040000MessageAttempts } from './Migration20261128040000MessageAttempts.js';
import { Migration20261128020000RequestLog } from './Migration20261128020000RequestLog.js';
import { Migration20261128050000JobWorkers } from './Migration20261128050000JobWorkers.js';
import { Migration20261129010000JobTraceParent } from './Migration20261129010000JobTraceParent.js';
import { Migration20261129020000RequestLogBodies } from './Migration20261129020000RequestLogBodies.js';
import { Migration20261129030000AuditTrail } from './Migration20261129030000AuditTrail.js';
import { Migration20261130020000PersonSessions } from './Migration20261130020000PersonSessions.js';
import { Migration20261201000000DueRowIndexes } from './Migration20261201000000DueRowIndexes.js';

/** Every migration, in order. Listed explicitly so that built and test runs apply the same set. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122010000AddressLookupKey', class: Migration20261122010000AddressLookupKey },
  { name: 'Migration20261122020000EventOffers', class: Migration20261122020000EventOffers },
  { name: 'Migration20261122030000ProductOffers', class: Migration20261122030000ProductOffers },
  { name: 'Migration20261122040000Bookings', class: Migration20261122040000Bookings },
  { name: 'Migration20261122050000Collective', class: Migration20261122050000Collective },
  { name: 'Migration20261125000000PrimaryKeysNotNull', class: Migration20261125000000PrimaryKeysNotNull },
  { name: 'Migration20261126000000BackOffice', class: Migration20261126000000BackOffice },
  { name: 'Migration20261128000000OfferAccessibilityUnknown', class: Migration20261128000000OfferAccessibilityUnknown },
  { name: 'Migration20261128010000IdempotencyKeys', class: Migration20261128010000IdempotencyKeys },
  { name: 'Migration20261128020000RequestLog', class: Migration20261128020000RequestLog },
  { name: 'Migration20261128040000MessageAttempts', class: Migration20261128040000MessageAttempts },
  { name: 'Migration20261128050000JobWorkers', class: Migration20261128050000JobWorkers },
  { name: 'Migration20261129010000JobTraceParent', class: Migration20261129010000JobTraceParent },
  { name: 'Migration20261129020000RequestLogBodies', class: Migration20261129020000RequestLogBodies },
  { name: 'Migration20261129030000AuditTrail', class: Migration20261129030000AuditTrail },
  { name: 'Migration20261130020000PersonSessions', class: Migration20261130020000PersonSessions },
  { name: 'Migration20261201000000DueRowIndexes', class: Migration20261201000000DueRowIndexes },
];
