/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
import { createServer } from 'node:net';

/** Asks the OS for a free port on 127.0.0.1 and releases it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
