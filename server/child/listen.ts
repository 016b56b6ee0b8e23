/**
 * Serving on loopback for a run's scenario: listen, report the port, and close with every open
 * connection cut (a keep-alive client would otherwise hold `close` open until it times out). One
 * definition for every lab's service.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server and how to close it. */
export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (port 0: any free one); rejects on a listen error (e.g. the port is taken). */
export async function listenLocal(server: Server, port = 0): Promise<Listening> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
