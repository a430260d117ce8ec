import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server of a test, on 127.0.0.1 and a free port. */
export interface LocalServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly baseUrl: string;
  /** Closes the server and the connections still open (clients that keep them alive included). */
  close(): Promise<void>;
}

/** Serves `handler` (an Express app, or a plain request listener) on a free port of 127.0.0.1. */
export async function listenLocally(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
