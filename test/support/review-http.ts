/** Calling the worker's review API and /metrics over loopback HTTP, and snapshotting Redis to show nothing changed. */
import type { Redis } from 'ioredis';
import type { Harness } from './pipeline.js';

export const REVIEW_TOKEN = 'review-token-for-tests-0123456789';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json(): { error?: { code: string; message: string } } & Record<string, unknown>;
}

export interface CallOptions {
  /** The bearer token; null sends no Authorization header. */
  token?: string | null;
  /** A value is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: 'follow' | 'manual';
}

export function baseUrl(h: Harness): string {
  const port = h.runtime.http?.port;
  if (port === undefined) throw new Error('the worker has no HTTP endpoint');
  return `http://127.0.0.1:${port}`;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const token = options.token === undefined ? REVIEW_TOKEN : options.token;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...options.headers },
    body,
    redirect: options.redirect ?? 'follow',
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** The value of one counter series on /metrics, 0 when absent. */
export async function counter(base: string, series: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

export const apiRequests = (outcome: string) => `cosci_safety_review_api_requests_total{outcome="${outcome}"}`;

/** Every key under the prefix with its serialised value: equal snapshots mean nothing was written. */
export async function snapshot(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const dumped = await redis.dumpBuffer(key);
      if (dumped) out.set(key, dumped.toString('hex'));
    }
  } while (cursor !== '0');
  return out;
}

/** Publishes a hypothesis revision and waits until its classification job is done. */
export async function classify(h: Harness, hypothesisId: string, text: string, title?: string, revision = 1) {
  await h.publisher.publishHypothesisSaved({ hypothesisId, text, revision, ...(title ? { title } : {}) });
  await h.waitForJob('hypothesis.saved', `hypothesis.${encodeURIComponent(hypothesisId)}.r${revision}`);
}
