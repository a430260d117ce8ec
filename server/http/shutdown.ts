import type { Server } from 'node:http';
import type { Logger } from '../logger.js';
import { SHUTDOWN_GRACE_MS } from './limits.js';

/**
 * On SIGTERM or SIGINT: stop accepting, let in-flight requests finish (cut after the grace
 * period), then close what the process holds and exit.
 */
export function stopGracefully(
  server: Server,
  owner: {
    logger: Logger;
    close(): Promise<void>;
    /** Ends what the server's close does not wait out on its own (upgraded sockets), once their work is done. */
    drain?(): void;
  },
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    owner.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const forced = setTimeout(() => {
      owner.logger.warn('in-flight requests did not finish in time');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    server.close(() => {
      owner.close().then(
        () => {
          owner.logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          owner.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
    owner.drain?.();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
