import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';

/**
 * How long the local server waits on a client. Without limits a client that sends its headers
 * one byte a minute, or keeps idle connections open, holds a socket for ever and starves others.
 */
export interface ServerTimeouts {
  /** The whole request head must arrive within this (Node's server.headersTimeout). */
  headersMs: number;
  /** The whole request, body included, must arrive within this (server.requestTimeout). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (server.keepAliveTimeout). */
  keepAliveMs: number;
  /** How often Node checks the two limits above (connectionsCheckingInterval). */
  checkIntervalMs: number;
}

/** Generous enough for a 10 MB upload on a slow mobile link, short enough to free stuck sockets. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 20_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 5_000,
};

export interface LocalServerOptions {
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  port: number;
  hostname?: string;
  timeouts?: Partial<ServerTimeouts>;
}

/** Starts the local HTTP server (npm start, tests over a real port) and resolves once it listens. */
export function startLocalServer({ fetch, port, hostname, timeouts }: LocalServerOptions): Promise<{
  server: ServerType;
  port: number;
}> {
  const limits = { ...DEFAULT_SERVER_TIMEOUTS, ...timeouts };
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: (request: Request, env: unknown) => closeAfterRefusedBody(fetch(request, env)),
        port,
        hostname,
        serverOptions: {
          headersTimeout: limits.headersMs,
          requestTimeout: limits.requestMs,
          keepAliveTimeout: limits.keepAliveMs,
          connectionsCheckingInterval: limits.checkIntervalMs,
        },
      },
      (info: AddressInfo) => resolve({ server, port: info.port }),
    );
  });
}

/**
 * A 413 is answered without reading the body the client is still sending, and the server drops
 * the socket soon after. Saying `Connection: close` keeps clients (Node's fetch among them) from
 * reusing that socket for their next request and failing with "other side closed".
 */
async function closeAfterRefusedBody(pending: Response | Promise<Response>): Promise<Response> {
  const response = await pending;
  if (response.status !== 413) return response;
  const headers = new Headers(response.headers);
  headers.set('Connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
