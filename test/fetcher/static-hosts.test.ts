/**
 * `citations.hosts`: a name answered from the configuration instead of DNS,
 * through the fetcher the worker builds, to a real server on loopback. The
 * address still passes the guard: a private one needs its host allow-listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { fetchPage } from '../../src/fetcher/fetch-page.js';
import { fetchOptionsFrom } from '../../src/runtime/builders.js';
import { startServer, text, type LoopbackServer } from './loopback.js';

let server: LoopbackServer;

beforeAll(async () => {
  server = await startServer({
    '/paper': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`host header ${req.headers.host}`);
    },
  });
});
afterAll(() => server.close());

function optionsFor(citations: Record<string, unknown>) {
  return fetchOptionsFrom(ConfigSchema.parse({ citations }));
}

describe('citations.hosts', () => {
  it('fetches a listed name from its fixed address, with the cited name in the Host header', async () => {
    const options = optionsFor({
      hosts: { 'Paper.Example': '127.0.0.1' },
      allow_private_hosts: [`paper.example:${server.port}`],
    });
    const outcome = await fetchPage(`http://paper.example:${server.port}/paper`, options);
    expect(outcome.ok && text(outcome.body)).toBe(`host header paper.example:${server.port}`);
  });

  it('still refuses a private address whose host is not allow-listed', async () => {
    const options = optionsFor({ hosts: { 'paper.example': '127.0.0.1' } });
    const outcome = await fetchPage(`http://paper.example:${server.port}/paper`, options);
    expect(outcome).toMatchObject({ ok: false, reason: 'blocked_address' });
    expect(server.requests).toHaveLength(1);
  });

  it('names a key that is not a host name and a value that is not an address', () => {
    const bad = ConfigSchema.safeParse({ citations: { hosts: { 'paper.example': 'nowhere' } } });
    expect(bad.error?.issues[0]).toMatchObject({ path: ['citations', 'hosts', 'paper.example'] });
    const badName = ConfigSchema.safeParse({ citations: { hosts: { 'a b': '10.0.0.7' } } });
    expect(badName.error?.issues[0]?.message).toContain('host name');
  });
});
