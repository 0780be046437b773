/**
 * A Unix socket in front of the machine's Docker socket that a test can cut, restore and slow
 * down: the engine under test is pointed at it (DOCKER_HOST), while the shared daemon keeps
 * serving everyone else. Cut, the socket file is gone (the engine sees "no Docker socket", as
 * when dockerd is stopped); slowed, the next connections wait before they reach Docker.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** The socket the machine's Docker listens on (DOCKER_HOST of this process, or the default). */
export function realDockerSocket(): string {
  const host = process.env.DOCKER_HOST;
  return host?.startsWith('unix://') ? host.slice('unix://'.length) : '/var/run/docker.sock';
}

/** A proxy socket to Docker with switches. */
export interface DockerProxy {
  /** `unix://…` for DOCKER_HOST. */
  host: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Removes the socket and drops every open connection. */
  cut(): Promise<void>;
  /** Listens again. */
  restore(): Promise<void>;
  /**
   * The next `count` connections wait `ms` before they reach Docker. Open connections are
   * dropped first (Node's agent keeps them alive), so the next request makes a new one.
   */
  slowDown(count: number, ms: number): void;
  close(): Promise<void>;
}

/** Starts a proxy socket in `dir` forwarding to `upstream`. */
export async function startDockerProxy(
  dir: string,
  upstream = realDockerSocket(),
): Promise<DockerProxy> {
  const path = join(dir, 'docker-proxy.sock');
  const open = new Set<Socket>();
  let accepted = 0;
  let slow = { count: 0, ms: 0 };
  let server: Server | undefined;

  const forward = (client: Socket) => {
    accepted += 1;
    open.add(client);
    client.pause();
    const delay = slow.count > 0 ? slow.ms : 0;
    if (slow.count > 0) slow = { ...slow, count: slow.count - 1 };
    const timer = setTimeout(() => {
      if (client.destroyed) return;
      const docker = createConnection(upstream);
      open.add(docker);
      docker.on('close', () => {
        open.delete(docker);
        client.destroy();
      });
      docker.on('error', () => client.destroy());
      client.on('close', () => {
        open.delete(client);
        docker.destroy();
      });
      client.pipe(docker).pipe(client);
      client.resume();
    }, delay);
    client.on('error', () => clearTimeout(timer));
    client.on('close', () => {
      clearTimeout(timer);
      open.delete(client);
    });
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer(forward);
      next.once('error', reject);
      next.listen(path, () => {
        server = next;
        resolve();
      });
    });

  const cut = async () => {
    const current = server;
    server = undefined;
    for (const socket of open) socket.destroy();
    open.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    host: `unix://${path}`,
    connections: () => accepted,
    cut,
    restore: () => (server ? Promise.resolve() : listen()),
    slowDown: (count, ms) => {
      slow = { count, ms };
      for (const socket of open) socket.destroy();
      open.clear();
    },
    close: cut,
  };
}
