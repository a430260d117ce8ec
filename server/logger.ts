import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * Structured logs. The redaction paths are a second line of defence: nothing should
 * put a key or a secret in a log line in the first place.
 */
export function createLogger(level: Config['logLevel']): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          '*.apiKey',
          '*.secret',
          '*.messagingSecret',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    // Written as logged: pino's default asynchronous writer let a request's line, logged before
    // "stopped", reach stdout after it when the machine was busy.
    pino.destination({ dest: 1, sync: true }),
  );
}
