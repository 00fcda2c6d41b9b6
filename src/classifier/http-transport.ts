/**
 * The `fetch` the classifier's SDK client calls, over undici's request API.
 *
 * Why not fetch itself: for a request answered at once, fetch's web streams,
 * Request object and body tee cost about as much CPU as everything else in
 * the call together. Over `Dispatcher.request` the same SDK call costs about
 * half (bench/pipeline.ts measures both). What the SDK reads of the answer
 * is the same: a WHATWG Response, with the status, the headers and the whole
 * body. The classifier never streams, so the body is read before the
 * Response is made; the SDK's signal (its timeout) still ends the request
 * while the body is read.
 */
import { Response, type Dispatcher } from 'undici';

export type TransportFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Final statuses whose Response must have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

export function requestFetch(dispatcher: Dispatcher): TransportFetch {
  return async (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) {
      throw new TypeError('the classifier transport takes a URL, not a Request');
    }
    const body = init.body ?? null;
    if (body !== null && typeof body !== 'string') {
      // The Messages API takes JSON: the SDK sends it as a string.
      throw new TypeError('the classifier transport sends string bodies only');
    }
    const url = typeof input === 'string' ? new URL(input) : input;
    const headers: string[] = [];
    let encoding = false;
    const given = init.headers ?? {};
    // The SDK gives a Headers; a plain record or a list of pairs works too.
    const pairs = (Symbol.iterator in given ? given : Object.entries(given)) as Iterable<[string, string]>;
    for (const [name, value] of pairs) {
      headers.push(name, value);
      encoding ||= name.toLowerCase() === 'accept-encoding';
    }
    // Nothing decompresses the body here: ask for it as it is.
    if (!encoding) headers.push('accept-encoding', 'identity');
    const res = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body,
      signal: init.signal ?? undefined,
    });
    const text = await res.body.text();
    const responseHeaders: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) responseHeaders.push([name, v]);
      else if (value !== undefined) responseHeaders.push([name, value]);
    }
    return new Response(NULL_BODY.has(res.statusCode) ? null : text, {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}
