import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { WebSocketServer } from 'ws';

/**
 * A WebSocket-to-TCP relay like Neon's own proxy: lets Neon's serverless driver talk to a
 * plain local PostgreSQL, offline. Only loopback targets are relayed.
 */
export async function startNeonProxy() {
  const http = createHttpServer();
  const wss = new WebSocketServer({ server: http, path: '/v2' });
  wss.on('connection', (socket, request) => {
    const address = new URL(request.url ?? '', 'http://proxy').searchParams.get('address') ?? '';
    const [host, port] = address.split(':');
    if (!host || !['127.0.0.1', 'localhost'].includes(host)) return socket.close(1008, 'loopback only');
    const tcp = connect(Number(port ?? 5432), host);
    tcp.on('data', (data) => socket.send(data));
    tcp.on('close', () => socket.close());
    tcp.on('error', () => socket.close());
    socket.on('message', (data) => tcp.write(data as Buffer));
    socket.on('close', () => tcp.end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    wsProxy: (host: string, targetPort: number | string) => `127.0.0.1:${port}/v2?address=${host}:${targetPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}

