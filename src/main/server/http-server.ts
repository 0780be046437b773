/**
 * The HTTP + WebSocket transport of LabApi on 127.0.0.1. Every `/api/*` request and the
 * event socket need the launch token; without it the answer is a bare 401. Every request must
 * also name the engine as its Host and come from an allowed Origin (request-origin.ts), else 403.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { WebSocket, WebSocketServer as WebSocketServerType } from 'ws';
import { isLabMethod, labPaths } from '../../shared/lab-api';
import type { EngineAddress } from '../../shared/lab-client';
import { failure, type LabResult } from '../../shared/result';
import { acceptsEmptyRequest, dispatchLabCall } from '../engine/api/dispatch';
import { EncodedAnswer } from '../engine/api/encoded-answer';
import type { Engine } from '../engine/engine';
import { maxJsonBodyBytes } from '../../shared/transport-limits';
import { newToken, presentedToken, tokenMatches } from './auth';
import { isBundleUpload, receiveBundle } from './bundle-upload';
import {
  allowedOrigins,
  corsHeaders,
  devServerOrigins,
  hostAllowed,
  originAllowed,
} from './request-origin';
import {
  isLoopbackPeer,
  pathRefusal,
  readableRoots,
  resolvedPathBody,
  type PathAccess,
} from './path-access';
import { runConfined } from '../engine/confined-read';
import { importFolderRoots } from '../engine/import-folders';
import { serveStatic } from './static-files';

/** Options for `startServer`. */
export interface ServerOptions {
  engine: Engine;
  /** Folder of the built renderer. */
  rendererDir: string;
  /** 0 picks any free port. */
  port?: number;
  /** Injected for tests; a fresh random token otherwise. */
  token?: string;
  /** Origins allowed besides the engine's own and the window's; default: the dev server's. */
  allowedOrigins?: readonly string[];
  /** Folders besides the workspace whose files path APIs may read (`--allow-path`). */
  allowedPaths?: readonly string[];
}

/** A listening server. */
export interface RunningServer {
  readonly address: EngineAddress;
  /** Stops accepting, closes sockets, resolves when done. */
  close(): Promise<void>;
  /** Adds a folder whose files path APIs may read (a folder the user chose in the window). */
  allowFolder(folder: string): void;
}

// The contract's request schemas are sized to fit this (transport-limits.ts).
const maxBodyBytes = maxJsonBodyBytes;
const unauthorized = failure('unauthorized', 'A valid engine token is required.');
const forbidden = failure(
  'unauthorized',
  'This engine answers only its own loopback address and the CueLab window (Host and Origin checked).',
);

/** Methods that widen what a path may name: only this machine's user may call them. */
const folderMethods = new Set(['addImportFolder', 'removeImportFolder']);
const remoteFolders = failure(
  'unauthorized',
  'This engine is reached from another machine, so it cannot add or remove import folders ' +
    '(only its own user can, in Settings); send files as uploads instead.',
);

/** Starts listening on 127.0.0.1 and resolves once the port is bound. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { engine, rendererDir } = options;
  const token = options.token ?? newToken();
  // ws is required when a server starts, so the commands that never serve do not load it.
  const { WebSocketServer } = createRequire(__filename)('ws') as {
    WebSocketServer: typeof WebSocketServerType;
  };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  const server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        sendJson(response, 500, failure('internal', `The engine failed: ${message}`));
      } else {
        response.destroy();
      }
    });
  });

  let origins = new Set<string>();
  let port = 0;
  // Folders the process allowed (--allow-path, allowFolder); the workspace's import folders
  // are read on each request, so a folder added in Settings counts from the next request on.
  const roots = [...(options.allowedPaths ?? [])];
  const currentAccess = (): PathAccess => ({
    roots: [...importFolderRoots(engine.workspace.path), ...roots],
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!hostAllowed(request, port) || !originAllowed(request, origins)) {
      sendJson(response, 403, forbidden);
      return;
    }
    const cors = corsHeaders(request);
    if (!url.pathname.startsWith(labPaths.methodPrefix)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        sendJson(response, 405, failure('bad_request', 'Static files answer GET only.'));
        return;
      }
      serveStatic(rendererDir, url.pathname, response);
      return;
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors);
      response.end();
      return;
    }
    if (!tokenMatches(presentedToken(request, url), token)) {
      sendJson(response, 401, unauthorized, cors);
      return;
    }
    const method = url.pathname.slice(labPaths.methodPrefix.length);
    if (request.method === 'GET') {
      if (isLabMethod(method) && !acceptsEmptyRequest(method)) {
        sendJson(response, 405, failure('bad_request', `${method} takes fields: use POST.`), cors);
        return;
      }
      sendResult(response, await dispatchLabCall(engine.handlers, method, {}), cors);
      return;
    }
    if (request.method !== 'POST') {
      sendJson(response, 405, failure('bad_request', 'LabApi methods answer POST (or GET).'), cors);
      return;
    }
    if (method === 'openBundle' && isBundleUpload(request)) {
      const replace = url.searchParams.get('replace') === '1';
      const upload = await receiveBundle(request, (path) =>
        dispatchLabCall(engine.handlers, method, { path, ...(replace ? { replace } : {}) }),
      );
      if (upload.status === 413) response.setHeader('connection', 'close');
      if (upload.status) sendJson(response, upload.status, upload.result, cors);
      else sendResult(response, upload.result, cors);
      return;
    }
    const body = await readJsonBody(request);
    if (!body.ok) {
      // The rest of a too-large body is never read: the connection cannot be reused.
      if (body.status === 413) response.setHeader('connection', 'close');
      sendJson(response, body.status, failure('bad_request', body.message), cors);
      return;
    }
    // A path a token holder names is read only inside the roots the user allowed.
    const loopback = isLoopbackPeer(request.socket.remoteAddress);
    if (!loopback && folderMethods.has(method)) {
      sendJson(response, 403, remoteFolders, cors);
      return;
    }
    const pathAccess = currentAccess();
    const refused = pathRefusal(method, body.value, pathAccess, loopback);
    if (refused) {
      sendJson(response, 403, refused, cors);
      return;
    }
    // The handler gets the checked (resolved) paths, and every file it reads is checked again
    // on its open descriptor against the same roots (engine/confined-read.ts).
    const resolvedBody = resolvedPathBody(method, body.value);
    const result = await runConfined(readableRoots(pathAccess, loopback), () =>
      dispatchLabCall(engine.handlers, method, resolvedBody),
    );
    sendResult(response, result, cors);
  }

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!hostAllowed(request, port) || !originAllowed(request, origins)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (url.pathname !== labPaths.events || !tokenMatches(presentedToken(request, url), token)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => attachEventSocket(engine, ws));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  origins = allowedOrigins(port, options.allowedOrigins ?? devServerOrigins(process.env));

  return {
    address: { baseUrl: `http://127.0.0.1:${port}/`, token },
    allowFolder: (folder) => {
      if (!roots.includes(folder)) roots.push(folder);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attachEventSocket(engine: Engine, ws: WebSocket): void {
  const send = (message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  send(engine.hello());
  const unsubscribe = engine.events.subscribe(send);
  ws.on('close', unsubscribe);
  ws.on('error', () => {
    unsubscribe();
    ws.terminate();
  });
  // Clients only listen; anything they send is ignored.
}

function sendResult(
  response: ServerResponse,
  result: LabResult<unknown>,
  cors: Record<string, string>,
): void {
  if (result.ok && result.value instanceof EncodedAnswer) {
    sendEncoded(response, result.value, cors);
    return;
  }
  if (result.ok) {
    sendJson(response, 200, result, cors);
    return;
  }
  const status: Record<string, number> = {
    bad_request: 400,
    unknown_method: 404,
    not_found: 404,
    unauthorized: 401,
  };
  sendJson(response, status[result.error.code] ?? 500, result, cors);
}

/**
 * An answer a worker encoded, written as its bytes within the result's envelope: nothing on
 * this thread parses or stringifies it, and each chunk waits for the socket to drain.
 */
function sendEncoded(
  response: ServerResponse,
  answer: EncodedAnswer,
  cors: Record<string, string>,
): void {
  const head = Buffer.from('{"ok":true,"value":');
  const tail = Buffer.from('}');
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(head.length + answer.bytes + tail.length),
    'cache-control': 'no-store',
    ...cors,
  });
  const parts = [head, ...answer.chunks, tail];
  const next = (): void => {
    while (parts.length > 0) {
      const part = parts.shift() as Uint8Array;
      if (parts.length === 0) {
        response.end(part);
        return;
      }
      if (!response.write(part)) {
        response.once('drain', next);
        return;
      }
    }
  };
  // A client that went away stops the writing (its chunks are dropped with the response).
  response.once('close', () => parts.splice(0));
  next();
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  cors: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...cors,
  });
  response.end(JSON.stringify(body));
}

type BodyResult = { ok: true; value: unknown } | { ok: false; status: number; message: string };

async function readJsonBody(request: IncomingMessage): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) {
      return { ok: false, status: 413, message: `The request body exceeds ${maxBodyBytes} bytes.` };
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      message: `The request body is not valid JSON: ${(error as Error).message}.`,
    };
  }
}
