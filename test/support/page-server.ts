/**
 * A loopback web server for citation tests: routes to bodies, with a count of
 * requests per path and the order they came in.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageServer {
  port: number;
  /** Base URL through the allow-listed name `localhost`. */
  base: string;
  hits: Map<string, number>;
  /** Each request's path and query, in the order the requests came in. */
  arrivals: string[];
  route(path: string, handler: Route): void;
  page(path: string, body: string | Buffer, contentType?: string): void;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const arrivals: string[] = [];
  const server = createServer((req, res) => {
    arrivals.push(req.url ?? '/');
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://localhost:${port}`,
    hits,
    arrivals,
    route: (path, handler) => routes.set(path, handler),
    page(path, body, contentType = 'text/html; charset=utf-8') {
      routes.set(path, (_req, res) => res.writeHead(200, { 'content-type': contentType }).end(body));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
