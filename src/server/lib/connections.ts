import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The server's connections, as a close sees them. `server.close()` waits for every connection to end, and Node's
 * `closeIdleConnections()` ends only those between two requests: a connection that never sent a request (a browser's
 * preconnect, a client that opened one and was aborted before writing) counts as active until the headers timeout,
 * which would hold a shutdown for a minute. `closeUnused()` ends every connection with no request running: one
 * whose request is still in flight finishes it first.
 */
export function trackConnections(server: Server) {
  const open = new Set<Socket>();
  const serving = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    serving.set(socket, (serving.get(socket) ?? 0) + 1);
    res.once('close', () => serving.set(socket, (serving.get(socket) ?? 1) - 1));
  });
  return {
    closeUnused() {
      for (const socket of open) if (!serving.get(socket)) socket.destroy();
    },
  };
}
