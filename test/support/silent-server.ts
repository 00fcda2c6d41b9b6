/** A TCP server that accepts connections and never answers: a frozen Redis, or a network that drops packets. */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface SilentServer {
  /** A redis:// URL pointing at it. */
  url: string;
  /** Ends every connection it holds (the waiting clients see them close). */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropConnections,
    async close() {
      dropConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
