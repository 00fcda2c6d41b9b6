/**
 * The scientist's review over HTTP: JSON routes on the review service, behind
 * a bearer token, and the page that calls them (src/http/review-page.ts).
 * Served beside /metrics only when a token is configured. See docs/review.md.
 *
 *   GET  /review/                        the page (a static shell: no data, no token needed)
 *   GET  /review/api/items[?...]         a page of the held queue: filters, order, cursor, limit
 *   GET  /review/api/items/:id           one hypothesis: text, verdict, state, evidence, history
 *   GET  /review/api/feed                changes to the queue as they happen (server-sent events)
 *   POST /review/api/items/:id/release   body {by, note, revision?, confirm?}
 *   POST /review/api/items/:id/confirm   body {by, note, revision?, confirm?}
 *   POST /review/api/items/:id/claim     body {by, take?}: "I am on it", until the claim lapses
 *   POST /review/api/items/:id/unclaim   body {by}
 *   POST /review/api/decide              body {decision, by, note, items: [{hypothesisId, revision}]}
 *   POST /review/api/reclassify          body {by, note?, limit?}: degraded held revisions classified again
 *
 * A request without the token gets 401 and leaves no trace but the metric: it
 * is refused before the service, and so Redis, is touched, and nothing is
 * logged (a log line per probe would let anyone fill the logs).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import { formatIssuesInline } from '../contracts/issues.js';
import { ReviewError, type ReviewErrorCode } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ReviewFeed } from '../review/review-feed.js';
import type { BulkDecideInput } from '../review/bulk-decide.js';
import { HypothesisIdSchema, type ReviewService } from '../review/review-service.js';
import type { DecisionKind } from '../safety/review/decision.js';
import { createBearerCheck, type BearerResult } from './bearer.js';
import { BodyError, discardBody, readJsonBody } from './json-body.js';
import { renderReviewPage, reviewPageHeaders } from './review-page.js';
import { parseQueueQuery } from './review-query.js';

/** The review API and page, served when a bearer token is configured. */
export interface ReviewEndpoint {
  service: ReviewService;
  /** The bearer token every review API request must carry. */
  token: string;
  metrics: Metrics;
  /** Where unexpected failures (500) are reported; refused requests are never logged. */
  logger?: Logger | undefined;
  /** Changes to the queue for the page's live updates; without it /review/api/feed is not a route. */
  feed?: ReviewFeed | undefined;
}

/** Seconds between comment lines on an idle feed, so proxies and the page know the connection is alive. */
export const FEED_HEARTBEAT_MS = 15_000;

/** A decision body is a few hundred bytes; a 2000-character note takes at most 12 kB even with every character escaped as `\uXXXX`. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Stable codes of the API's error bodies: the service's, plus those of the HTTP layer. */
export type ReviewApiErrorCode =
  | ReviewErrorCode
  | 'REVIEW_UNAUTHORIZED'
  | 'REVIEW_NO_ROUTE'
  | 'REVIEW_METHOD_NOT_ALLOWED'
  | 'REVIEW_UNSUPPORTED_MEDIA_TYPE'
  | 'REVIEW_BODY_TOO_LARGE'
  | 'REVIEW_INTERNAL';

const STATUS_OF: Record<ReviewErrorCode, number> = {
  REVIEW_INVALID: 400,
  REVIEW_NOT_FOUND: 404,
  REVIEW_NOT_HELD: 409,
  REVIEW_ALREADY_DECIDED: 409,
  REVIEW_CLAIMED: 409,
  REVISION_CONFLICT: 409,
  REVIEW_UNAVAILABLE: 503,
};

/** Seconds a client is asked to wait after a 503: about the time Redis takes to come back from a restart. */
const RETRY_AFTER_SECONDS = '5';

type Outcome = 'ok' | 'unauthorized' | 'invalid' | 'not_found' | 'conflict' | 'error';

function outcomeOf(status: number): Outcome {
  if (status < 400) return 'ok';
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status < 500) return 'invalid';
  return 'error';
}

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
};

/** The body of a decision; the service checks the content (name, note), this checks the shape. */
const DecideBodySchema = z.strictObject({
  by: z.string(),
  note: z.string(),
  revision: z.number().int().nonnegative().optional(),
  confirm: z.boolean().optional(),
});

/** The body of a claim: who, and whether to take it from another reviewer. */
const ClaimBodySchema = z.strictObject({ by: z.string(), take: z.boolean().optional() });

/** The body of a bulk decision; the service checks the content. */
const BulkDecideBodySchema = z.strictObject({
  decision: z.enum(['release', 'confirm'], { error: 'release or confirm' }),
  by: z.string(),
  note: z.string(),
  confirm: z.boolean().optional(),
  items: z.array(z.unknown()),
});

/** The body of a reclassification; the service checks the content. */
const ReclassifyBodySchema = z.strictObject({
  by: z.string(),
  note: z.string().optional(),
  limit: z.number().optional(),
});

class HttpProblem extends Error {
  override name = 'HttpProblem';
  constructor(
    readonly status: number,
    readonly code: ReviewApiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const invalid = (message: string) => new HttpProblem(400, 'REVIEW_INVALID', message);
const noRoute = () => new HttpProblem(404, 'REVIEW_NO_ROUTE', 'no such review route');
const notAllowed = (...methods: string[]) =>
  new HttpProblem(405, 'REVIEW_METHOD_NOT_ALLOWED', `use ${methods.join(' or ')}`, { allow: methods.join(', ') });

/** Whether the server should hand this path to the review handler. */
export function isReviewPath(path: string): boolean {
  return path === '/review' || path.startsWith('/review/');
}

/** A path segment as an id; malformed percent-encoding is the caller's error, not a crash. */
function decodeId(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw invalid('hypothesisId: the id in the path is not valid percent-encoding');
  }
  // The service checks it too; checking here lets the message name the field, as a body's would.
  const parsed = HypothesisIdSchema.safeParse(id);
  if (!parsed.success) throw invalid(`hypothesisId: ${parsed.error.issues[0]?.message ?? 'not a valid id'}`);
  return id;
}

function isRead(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

function isJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'] ?? '';
  return /^application\/json\s*(;|$)/i.test(type);
}

function unauthorized(result: Exclude<BearerResult, 'ok'>): HttpProblem {
  // RFC 6750 section 3: say which scheme; name the error only when credentials were sent.
  const challenge =
    result === 'missing'
      ? 'Bearer realm="cosci-safety review"'
      : 'Bearer realm="cosci-safety review", error="invalid_token"';
  return new HttpProblem(401, 'REVIEW_UNAUTHORIZED', 'a valid bearer token is required', {
    'www-authenticate': challenge,
  });
}

export function createReviewHandler(endpoint: ReviewEndpoint): (req: IncomingMessage, res: ServerResponse) => void {
  const checkToken = createBearerCheck(endpoint.token);
  const { service, metrics } = endpoint;

  function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
    metrics.reviewApiRequests.inc({ outcome: outcomeOf(status) });
    res.writeHead(status, headers);
    res.end(body);
  }

  function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
    send(res, status, { ...JSON_HEADERS, ...extra }, JSON.stringify(value));
  }

  function sendProblem(res: ServerResponse, problem: HttpProblem): void {
    sendJson(res, problem.status, { error: { code: problem.code, message: problem.message } }, problem.headers);
  }

  async function jsonBody(req: IncomingMessage): Promise<unknown> {
    if (!isJson(req)) {
      throw new HttpProblem(415, 'REVIEW_UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
    }
    let raw: unknown;
    try {
      raw = await readJsonBody(req, MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      if (err.problem === 'too_large') throw new HttpProblem(413, 'REVIEW_BODY_TOO_LARGE', err.message);
      throw invalid(err.message);
    }
    return raw;
  }

  async function decide(req: IncomingMessage, kind: DecisionKind, hypothesisId: string): Promise<unknown> {
    const raw = await jsonBody(req);
    const body = DecideBodySchema.safeParse(raw);
    if (!body.success) throw invalid(formatIssuesInline(body.error));
    return service.decide(kind, { hypothesisId, ...body.data });
  }

  /**
   * The feed: one server-sent event per change, `id` the stream entry id.
   * JSON has no raw line breaks, so each change is one `data` line.
   */
  function openFeed(req: IncomingMessage, res: ServerResponse, feed: ReviewFeed): void {
    metrics.reviewApiRequests.inc({ outcome: 'ok' });
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // A buffering proxy would hold the changes back until its buffer fills.
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\nevent: ready\ndata: {}\n\n');
    const unsubscribe = feed.subscribe((change, entryId) => {
      res.write(`id: ${entryId}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': alive\n\n'), FEED_HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  }

  /** Everything under /review/api: the token first, then the route. Resolves to [status, body], or 'feed'. */
  async function api(req: IncomingMessage, path: string, query: string): Promise<[number, unknown] | 'feed'> {
    const auth = checkToken(req.headers.authorization);
    if (auth !== 'ok') throw unauthorized(auth);
    const segments = path.slice('/review/api/'.length).split('/');
    if (segments[0] === 'feed' && segments.length === 1 && endpoint.feed) {
      if (req.method !== 'GET') throw notAllowed('GET');
      return 'feed';
    }
    if (segments[0] === 'reclassify' && segments.length === 1) {
      if (req.method !== 'POST') throw notAllowed('POST');
      const body = ReclassifyBodySchema.safeParse(await jsonBody(req));
      if (!body.success) throw invalid(formatIssuesInline(body.error));
      return [200, await service.reclassify(body.data)];
    }
    if (segments[0] === 'decide' && segments.length === 1) {
      if (req.method !== 'POST') throw notAllowed('POST');
      const body = BulkDecideBodySchema.safeParse(await jsonBody(req));
      if (!body.success) throw invalid(formatIssuesInline(body.error));
      const { decision, ...input } = body.data;
      return [
        200,
        await service.decideMany(decision === 'release' ? 'released' : 'confirmed', input as BulkDecideInput),
      ];
    }
    if (segments[0] !== 'items') throw noRoute();
    if (segments.length === 1) {
      if (!isRead(req)) throw notAllowed('GET', 'HEAD');
      let parsed: ReturnType<typeof parseQueueQuery>;
      try {
        parsed = parseQueueQuery(query);
      } catch (err) {
        throw invalid((err as Error).message);
      }
      return [200, await service.queue(parsed)];
    }
    const [, segment = '', action] = segments;
    if (segment === '' || segments.length > 3) throw noRoute();
    if (segments.length === 2) {
      if (!isRead(req)) throw notAllowed('GET', 'HEAD');
      return [200, { item: await service.show(decodeId(segment)) }];
    }
    if (action === 'claim' || action === 'unclaim') {
      if (req.method !== 'POST') throw notAllowed('POST');
      const body = ClaimBodySchema.safeParse(await jsonBody(req));
      if (!body.success) throw invalid(formatIssuesInline(body.error));
      const id = decodeId(segment);
      return [200, action === 'claim' ? await service.claim(id, body.data) : await service.unclaim(id, body.data)];
    }
    if (action !== 'release' && action !== 'confirm') throw noRoute();
    if (req.method !== 'POST') throw notAllowed('POST');
    return [200, await decide(req, action === 'release' ? 'released' : 'confirmed', decodeId(segment))];
  }

  function page(req: IncomingMessage, res: ServerResponse): void {
    if (!isRead(req)) throw notAllowed('GET', 'HEAD');
    const nonce = randomBytes(18).toString('base64');
    send(res, 200, reviewPageHeaders(nonce), renderReviewPage(nonce));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    try {
      if (path === '/review') {
        // The page calls the API by relative URLs, which resolve under /review/ (and under a proxy's prefix).
        if (!isRead(req)) throw notAllowed('GET', 'HEAD');
        return send(res, 308, { location: 'review/', 'cache-control': 'no-store' }, '');
      }
      if (path === '/review/') return page(req, res);
      if (!path.startsWith('/review/api/')) {
        // Nothing but the page lives outside the API; say so without asking for the token first.
        throw noRoute();
      }
      const answer = await api(req, path, query);
      if (answer === 'feed') return openFeed(req, res, endpoint.feed!);
      const [status, body] = answer;
      sendJson(res, status, body);
    } catch (err) {
      if (err instanceof HttpProblem) return sendProblem(res, err);
      if (err instanceof ReviewError) {
        const code = err.code as ReviewErrorCode;
        const status = STATUS_OF[code] ?? 500;
        const headers: Record<string, string> = status === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : {};
        return sendProblem(res, new HttpProblem(status, code, err.message, headers));
      }
      endpoint.logger?.error({ err, method: req.method, path }, 'review request failed');
      sendProblem(res, new HttpProblem(500, 'REVIEW_INTERNAL', 'the request failed; see the worker log'));
    } finally {
      // A body left unread (a refused request, one too large) is read off, within a bound.
      discardBody(req);
    }
  }

  return (req, res) => {
    void handle(req, res).catch(() => res.destroy());
  };
}
