export { type CaughtBody, REQUEST_LOG_BODY_MAX_BYTES } from './bodyText.js';
export { RequestLogBody } from './RequestLogBody.js';
export { RequestLogEntry } from './RequestLogEntry.js';
export { purgeRequestLog, REQUEST_LOG_RETENTION_MS, type RetentionLimits } from './retention.js';
export { type CaughtRequest, RequestLogWriter, type RequestLogWriterOptions } from './writer.js';
