/**
 * The worker's HTTP endpoint: /metrics (Prometheus), /healthz (the process
 * answers), /readyz (Redis reachable and the workers running), and, when a
 * token is configured, the review API and page under /review
 * (src/http/review-api.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { createReviewHandler, isReviewPath, type ReviewEndpoint } from './review-api.js';

export type { ReviewEndpoint } from './review-api.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** Resolves to a list of problems; empty when ready. */
  readiness: () => Promise<string[]>;
  /** Refreshes gauges read at scrape time (queue depth). */
  beforeScrape?: () => Promise<void>;
  /** The review API and page; off when undefined. */
  review?: ReviewEndpoint | undefined;
}

export interface RunningHttpServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const review = options.review ? createReviewHandler(options.review) : undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (review && isReviewPath(path)) return review(req, res);
    // Unknown paths are 404 whatever the method, so /review answers the same with the API off as any other path.
    if (!OPERATIONS_PATHS.has(path)) return send(404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    if (path === '/healthz') return send(200, 'ok\n');
    if (path === '/readyz') {
      options.readiness().then(
        (problems) => (problems.length === 0 ? send(200, 'ready\n') : send(503, `not ready: ${problems.join('; ')}\n`)),
        (err: unknown) => send(503, `not ready: ${String(err)}\n`),
      );
      return;
    }
    if (path === '/metrics') {
      (options.beforeScrape?.() ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => options.registry.metrics())
        .then(
          (body) => send(200, body, options.registry.contentType),
          (err: unknown) => send(500, `metrics failed: ${String(err)}\n`),
        );
      return;
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
