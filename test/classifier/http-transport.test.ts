/**
 * The classifier's transport: undici's request API behind the fetch the SDK
 * calls, against a loopback HTTP server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, createAnthropicClient, toCallError } from '../../src/classifier/anthropic-assessor.js';
import { requestFetch } from '../../src/classifier/http-transport.js';
import { until } from '../support/poll.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const agent = new Agent();
const fetch = requestFetch(agent);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/stall') {
        // Headers and a first part, then nothing: only the signal ends it.
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.write('{"partial":');
      }
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', 'request-id': 'req_1' });
      res.end(JSON.stringify({ echo: body, ok: 'ünïcödé' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await agent.close();
});

describe('requestFetch', () => {
  it('sends the method, path, query, headers and body, and answers with status, headers and body', async () => {
    const res = await fetch(`${base}/v1/messages?beta=true`, {
      method: 'POST',
      headers: new Headers({ 'x-api-key': 'sk-test', 'content-type': 'application/json' }),
      body: '{"model":"m"}',
    });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', body: '{"model":"m"}' });
    expect(req.headers['x-api-key']).toBe('sk-test');
    expect(req.headers['content-length']).toBe('13');
    // Nothing here decompresses: the body is asked for as it is.
    expect(req.headers['accept-encoding']).toBe('identity');

    expect(res.status).toBe(429);
    expect(res.ok).toBe(false);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('request-id')).toBe('req_1');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ echo: '{"model":"m"}', ok: 'ünïcödé' });
  });

  it('takes headers as a record too, and keeps an accept-encoding it is given', async () => {
    await fetch(`${base}/plain`, { method: 'GET', headers: { 'accept-encoding': 'gzip', 'x-one': '1' } });
    expect(seen.at(-1)!.headers).toMatchObject({ 'accept-encoding': 'gzip', 'x-one': '1' });
  });

  it('gives a null body for a 204', async () => {
    const res = await fetch(`${base}/empty`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("ends a request whose body stalls when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/stall`, { method: 'POST', body: '{}', signal: controller.signal });
    await until('the server stalled the body', () => seen.some((s) => s.url === '/stall'), { everyMs: 10 });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a body that is not a string, and a Request object, with a clear error', async () => {
    await expect(fetch(`${base}/x`, { method: 'POST', body: new Uint8Array([1]) })).rejects.toThrow(
      'the classifier transport sends string bodies only',
    );
    await expect(fetch(new Request(`${base}/x`))).rejects.toThrow('the classifier transport takes a URL');
  });
});

describe('the classifier client', () => {
  it('fails an answer larger than MAX_RESPONSE_BYTES as a connection error, having read no more', async () => {
    const big = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Chunked, so the size is only known as it arrives.
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let i = 0; i < MAX_RESPONSE_BYTES / chunk.length + 1; i++) res.write(chunk);
        res.end('{}');
      });
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    const client = createAnthropicClient({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${(big.address() as AddressInfo).port}`,
      timeoutMs: 10_000,
    });
    try {
      const err = await client.messages
        .create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(Anthropic.APIConnectionError);
      expect(toCallError(err).kind).toBe('connection_error');
    } finally {
      big.closeAllConnections();
      await new Promise((r) => big.close(r));
    }
  });
});
