import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh random token for one engine launch (256 bits, hex). */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** The token a request presents: `Authorization: Bearer T`, or `?token=T` (WebSocket, links). */
export function presentedToken(request: IncomingMessage, url: URL): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return url.searchParams.get('token');
}

/** Constant-time comparison of a presented token with the launch token. */
export function tokenMatches(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
