/**
 * Serves the built renderer. The files hold no data, so they need no token; paths are
 * confined to the renderer folder (symlinks included: one pointing out is not followed) and
 * unknown paths fall back to index.html.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Resolves a URL path to a file inside `root`, or null when it would leave it. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = normalize(join(root, decoded));
  if (!inside(root, candidate)) return null;
  // A symlink inside the folder may point anywhere: what is served is where it really leads.
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return candidate; // absent: the index.html fallback serves it
  }
  return inside(realpathSync(root), real) ? real : null;
}

function inside(root: string, path: string): boolean {
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  return path === root || path.startsWith(rootWithSep);
}

/** Writes the file for `urlPath`, index.html for unknown routes, 404 outside the root. */
export function serveStatic(root: string, urlPath: string, response: ServerResponse): void {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`The CueLab renderer is not built (${index} is missing). Run: npm run build\n`);
    return;
  }
  const resolved = resolveStaticPath(root, urlPath);
  if (resolved === null) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Not found\n');
    return;
  }
  const file = isFile(resolved) ? resolved : index;
  const isIndex = file === index;
  response.writeHead(200, {
    'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'cache-control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  createReadStream(file).pipe(response);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
