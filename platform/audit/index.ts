export { AuditEntry } from './AuditEntry.js';
export {
  allAuditEntries,
  appendAuditEntry,
  type AuditActor,
  type AuditFilter,
  type AuditPage,
  type AuditValues,
  findAuditEntries,
  type NewAuditEntry,
} from './auditLog.js';
export { csvField, csvRecord } from './csv.js';
