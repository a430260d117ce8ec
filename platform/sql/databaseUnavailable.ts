import { errorChain } from '../errors/errorChain.js';

/**
 * Whether an error says the database could not be reached, rather than that a statement was
 * wrong: the first is the client's cue to try again shortly (503), the second a bug (500).
 *
 * What counts, as the drivers in use report it (`pg` through knex, and MikroORM's wrapping of
 * them, which copies `code`):
 * - a socket that could not be opened or was cut (`ECONNREFUSED`, `ECONNRESET`, ...). Outgoing
 *   calls to providers never throw (platform/outbound), and Redis failures fall back to memory
 *   (server/rateLimit.ts), so a socket error that reaches a request's handler is the database's;
 * - PostgreSQL's own refusals while it stops or starts: SQLSTATE class 08 (connection
 *   exception), `57P01` admin_shutdown (`pg_ctl stop -m fast` ends every session with it),
 *   `57P02` crash_shutdown, `57P03` cannot_connect_now (still starting), `53300` too many
 *   connections;
 * - `pg`'s texts for a connection that died under a query ("Connection terminated
 *   unexpectedly", "... is not queryable", its connection timeout "timeout expired"), alone or
 *   after the statement that knex prefixes them with;
 * - knex's pool giving up on a connection (`KnexTimeoutError`: every connection busy or none
 *   could be made within `acquireConnectionTimeout`).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorChain(error).some(saysUnavailable);
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** The driver's words end the message: knex puts the statement first when one was running ("<sql> - <text>"). */
const DRIVER_TEXTS = [
  /(^| - )Connection terminated( unexpectedly| due to connection timeout)?$/,
  /(^| - )Client (has encountered a connection error|was closed) and is not queryable$/,
  /(^| - )timeout expired$/,
  /^Knex: Timeout acquiring a connection/,
];

function saysUnavailable(error: Error): boolean {
  const { code } = error as Error & { code?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
    return true;
  if (error.name === 'KnexTimeoutError') return true;
  return DRIVER_TEXTS.some((text) => text.test(error.message));
}
