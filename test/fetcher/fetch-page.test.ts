import type http from 'node:http';
import net from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FetcherError } from '../../src/fetcher/errors.js';
import {
  createFetchAgent,
  DEFAULT_ACCEPT,
  fetchPage,
  HostLimiter,
  type FetchOutcome,
} from '../../src/fetcher/fetch-page.js';
import { until } from '../support/poll.js';
import { fakeLookup, startServer, testOptions, text, type LoopbackServer } from './loopback.js';

let server: LoopbackServer;

function redirect(location: string, status = 302) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.end(`see ${location}`);
  };
}

function failure(outcome: FetchOutcome): { reason: string; detail: string; status?: number } {
  if (outcome.ok) throw new Error(`expected a failure, got ${outcome.status} from ${outcome.finalUrl}`);
  return outcome;
}

beforeAll(async () => {
  server = await startServer({
    '/page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<p>hello</p>');
    },
    '/headers': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.headers));
    },
    '/error': (_req, res) => {
      res.writeHead(500);
      res.end('boom');
    },
    '/no-content': (_req, res) => {
      res.writeHead(204);
      res.end();
    },
    '/no-location': (_req, res) => {
      res.writeHead(302);
      res.end();
    },
    '/to-literal': (_req, res) => redirect(`${server.literal}/page`)(_req, res),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-evil': (_req, res) => redirect(`http://evil.test:${server.port}/page`)(_req, res),
    '/to-ftp': redirect('ftp://example.org/file'),
    '/to-credentials': (_req, res) => redirect(`http://user:secret@localhost:${server.port}/page`)(_req, res),
    '/r3': (_req, res) => redirect(`${server.origin}/r2`, 301)(_req, res),
    '/r2': redirect('/r1', 307),
    '/r1': redirect('page', 308),
    '/dir/relative': redirect('../page', 303),
    '/fragment': redirect('/page'),
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/chain': (req, res) => {
      const n = Number(new URL(req.url ?? '', 'http://x').searchParams.get('n'));
      if (n > 0) redirect(`/chain?n=${n - 1}`)(req, res);
      else res.end('end of chain');
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('fetchPage: pages and statuses', () => {
  it('fetches a page through the allow-listed name', async () => {
    const outcome = await fetchPage(`${server.origin}/page`, testOptions());
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.status).toBe(200);
    expect(outcome.contentType).toBe('text/html; charset=utf-8');
    expect(text(outcome.body)).toBe('<p>hello</p>');
    expect(outcome.wireBytes).toBe(12);
    expect(outcome.redirects).toEqual([]);
    expect(outcome.finalUrl).toBe(`${server.origin}/page`);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('sends the user agent, accept and accept-encoding', async () => {
    const outcome = await fetchPage(`${server.origin}/headers`, testOptions({ userAgent: 'ua/1' }));
    if (!outcome.ok) throw new Error(outcome.detail);
    const headers = JSON.parse(text(outcome.body)) as Record<string, string>;
    expect(headers['user-agent']).toBe('ua/1');
    expect(headers.accept).toBe(DEFAULT_ACCEPT);
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('names non-2xx answers http_<status>', async () => {
    expect(failure(await fetchPage(`${server.origin}/missing`, testOptions()))).toMatchObject({
      reason: 'http_404',
      status: 404,
    });
    expect(failure(await fetchPage(`${server.origin}/error`, testOptions()))).toMatchObject({
      reason: 'http_500',
      status: 500,
    });
  });

  it('returns an empty body for 204', async () => {
    const outcome = await fetchPage(`${server.origin}/no-content`, testOptions());
    expect(outcome.ok && outcome.status === 204 && outcome.body.length === 0).toBe(true);
  });

  it('reports a name that does not resolve as dns_error', async () => {
    const options = testOptions({ lookup: fakeLookup({}) });
    expect(failure(await fetchPage('http://nowhere.test/', options)).reason).toBe('dns_error');
  });
});

describe('fetchPage: refused before any connection', () => {
  let before: number;
  beforeEach(() => {
    before = server.requests.length;
  });

  async function refused(url: string, reason: string, options = testOptions()) {
    const outcome = failure(await fetchPage(url, options));
    expect(outcome.reason).toBe(reason);
    expect(server.requests.length).toBe(before);
    return outcome;
  }

  it.each([
    ['loopback literal', 'http://127.0.0.1:PORT/page'],
    ['decimal', 'http://2130706433:PORT/page'],
    ['octal', 'http://0177.0.0.1:PORT/page'],
    ['hex', 'http://0x7f.1:PORT/page'],
    ['short', 'http://127.1:PORT/page'],
    ['unspecified', 'http://0.0.0.0:PORT/page'],
    ['IPv6 loopback', 'http://[::1]:PORT/page'],
    ['IPv4-mapped dotted', 'http://[::ffff:127.0.0.1]:PORT/page'],
    ['IPv4-mapped hex', 'http://[::ffff:7f00:1]:PORT/page'],
    ['private', 'http://10.0.0.1:PORT/'],
    ['private 192.168', 'http://192.168.0.1/'],
    ['link-local', 'http://169.254.1.1/'],
    ['metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['IPv6 link-local', 'http://[fe80::1]:PORT/'],
  ])('refuses the %s form %s', async (_kind, template) => {
    const outcome = await refused(template.replace('PORT', String(server.port)), 'blocked_address');
    expect(outcome.detail).toMatch(/address/);
  });

  it('refuses a link-local literal with a zone index', async () => {
    await refused(`http://[fe80::1%25eth0]:${server.port}/`, 'invalid_url');
  });

  it('refuses a name that resolves to loopback, though it is the test server', async () => {
    const options = testOptions({ lookup: fakeLookup({ localhost: ['127.0.0.1'], 'evil.test': ['127.0.0.1'] }) });
    const outcome = await refused(`http://evil.test:${server.port}/page`, 'blocked_address', options);
    expect(outcome.detail).toContain('127.0.0.1 (loopback)');
  });

  it('refuses a name that resolves to a public and a private address', async () => {
    // 93.184.216.34 is unreachable here, which does not matter: nothing connects.
    const options = testOptions({ lookup: fakeLookup({ 'mixed.test': ['93.184.216.34', '10.0.0.1'] }) });
    const outcome = await refused('http://mixed.test/', 'blocked_address', options);
    expect(outcome.detail).toContain('10.0.0.1 (private)');
  });

  it('refuses private addresses for names off the allow-list (real resolver)', async () => {
    const options = testOptions({ policy: { allowPrivateHosts: [] } });
    await refused(`http://localhost:${server.port}/page`, 'blocked_address', options);
  });

  it.each(['file:///etc/passwd', 'ftp://localhost/', 'data:text/plain,hi', 'javascript:alert(1)'])(
    'refuses the scheme of %s',
    async (url) => {
      await refused(url, 'unsupported_scheme');
    },
  );

  it('refuses credentials in the URL', async () => {
    const outcome = await refused(`http://user:secret@localhost:${server.port}/page`, 'invalid_url');
    expect(outcome.detail).not.toContain('secret');
  });
});

describe('fetchPage: redirects', () => {
  it('follows a chain of three and lists each target', async () => {
    const outcome = await fetchPage(`${server.origin}/r3`, testOptions());
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.redirects).toEqual([`${server.origin}/r2`, `${server.origin}/r1`, `${server.origin}/page`]);
    expect(outcome.finalUrl).toBe(`${server.origin}/page`);
    expect(text(outcome.body)).toBe('<p>hello</p>');
  });

  it('resolves a relative Location against the current URL', async () => {
    const outcome = await fetchPage(`${server.origin}/dir/relative`, testOptions());
    expect(outcome.ok && outcome.finalUrl).toBe(`${server.origin}/page`);
  });

  it('keeps the fragment of the cited URL', async () => {
    const outcome = await fetchPage(`${server.origin}/fragment#section-2`, testOptions());
    expect(outcome.ok && outcome.finalUrl).toBe(`${server.origin}/page#section-2`);
  });

  it('detects a loop', async () => {
    const outcome = failure(await fetchPage(`${server.origin}/loop-a`, testOptions()));
    expect(outcome.reason).toBe('redirect_loop');
  });

  it('follows maxRedirects redirects and refuses one more', async () => {
    const five = await fetchPage(`${server.origin}/chain?n=5`, testOptions({ maxRedirects: 5 }));
    expect(five.ok && five.redirects.length).toBe(5);
    const six = failure(await fetchPage(`${server.origin}/chain?n=6`, testOptions({ maxRedirects: 5 })));
    expect(six.reason).toBe('too_many_redirects');
    const none = failure(await fetchPage(`${server.origin}/chain?n=1`, testOptions({ maxRedirects: 0 })));
    expect(none.reason).toBe('too_many_redirects');
  });

  it('names a 3xx without Location by its status', async () => {
    const outcome = failure(await fetchPage(`${server.origin}/no-location`, testOptions()));
    expect(outcome).toMatchObject({ reason: 'http_302', status: 302 });
  });

  it('refuses a redirect to the loopback literal without requesting it', async () => {
    const before = server.requests.length;
    const outcome = failure(await fetchPage(`${server.origin}/to-literal`, testOptions()));
    expect(outcome.reason).toBe('blocked_address');
    expect(server.requests.slice(before)).toEqual(['/to-literal']);
  });

  it('refuses a redirect to the metadata endpoint', async () => {
    const outcome = failure(await fetchPage(`${server.origin}/to-metadata`, testOptions()));
    expect(outcome.reason).toBe('blocked_address');
    expect(outcome.detail).toContain('169.254.169.254');
  });

  it('refuses a redirect to a name that resolves privately', async () => {
    const before = server.requests.length;
    const lookup = fakeLookup({ localhost: ['127.0.0.1'], 'evil.test': ['127.0.0.1'] });
    const outcome = failure(await fetchPage(`${server.origin}/to-evil`, testOptions({ lookup })));
    expect(outcome.reason).toBe('blocked_address');
    expect(server.requests.slice(before)).toEqual(['/to-evil']);
    expect(lookup.calls).toEqual(['localhost', 'evil.test']);
  });

  it('refuses redirects to other schemes and to URLs with credentials', async () => {
    expect(failure(await fetchPage(`${server.origin}/to-ftp`, testOptions())).reason).toBe('unsupported_scheme');
    const creds = failure(await fetchPage(`${server.origin}/to-credentials`, testOptions()));
    expect(creds.reason).toBe('invalid_url');
    expect(creds.detail).not.toContain('secret');
  });
});

describe('fetchPage: an allow-list entry admits its port, not the host', () => {
  // A plain TCP listener on another port of the admitted host, as Redis was
  // beside an allow-listed page server: it must never see a connection.
  let listener: net.Server;
  let listenerPort: number;
  let accepted = 0;
  let pages: LoopbackServer;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as net.AddressInfo).port;
    pages = await startServer({
      '/page': (_req, res) => res.end('<p>admitted</p>'),
      '/to-literal-port': (req, res) => redirect(`http://127.0.0.1:${listenerPort}/`)(req, res),
      '/to-name-port': (req, res) => redirect(`http://localhost:${listenerPort}/`)(req, res),
    });
  });
  afterAll(async () => {
    await pages.close();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  /** Connections the test made itself, to know when the listener has counted all before them. */
  let probes = 0;
  async function listenerUntouched(): Promise<void> {
    // The listener accepts in arrival order and closes each connection once
    // it has counted it: when our own is closed, any made before it is counted.
    await new Promise<void>((resolve) => {
      net
        .connect(listenerPort, '127.0.0.1')
        .on('error', () => undefined)
        .on('close', () => resolve());
    });
    probes++;
    expect(accepted - probes, 'connections the listener saw, besides our own').toBe(0);
  }

  it('refuses a redirect to another port of an admitted IP literal', async () => {
    const options = testOptions({ policy: { allowPrivateHosts: [`127.0.0.1:${pages.port}`] } });
    const admitted = await fetchPage(`${pages.literal}/page`, options);
    expect(admitted.ok && text(admitted.body)).toBe('<p>admitted</p>');
    const outcome = failure(await fetchPage(`${pages.literal}/to-literal-port`, options));
    expect(outcome.reason).toBe('blocked_address');
    expect(outcome.detail).toContain(`127.0.0.1:${listenerPort}`);
    await listenerUntouched();
  });

  it('refuses a redirect to another port of an admitted name', async () => {
    const options = testOptions({ policy: { allowPrivateHosts: [`localhost:${pages.port}`] } });
    const admitted = await fetchPage(`${pages.origin}/page`, options);
    expect(admitted.ok && text(admitted.body)).toBe('<p>admitted</p>');
    const outcome = failure(await fetchPage(`${pages.origin}/to-name-port`, options));
    expect(outcome.reason).toBe('blocked_address');
    expect(outcome.detail).toContain(`localhost:${listenerPort}`);
    await listenerUntouched();
  });

  it('admits the default ports only for an entry without a port', async () => {
    const before = pages.requests.length;
    for (const entry of ['127.0.0.1', 'localhost']) {
      const options = testOptions({ policy: { allowPrivateHosts: [entry] } });
      expect(failure(await fetchPage(`${pages.literal}/page`, options)).reason).toBe('blocked_address');
      expect(failure(await fetchPage(`${pages.origin}/page`, options)).reason).toBe('blocked_address');
    }
    expect(pages.requests.length).toBe(before);
  });

  it('admits every port of a host listed with the wildcard port', async () => {
    const options = testOptions({ policy: { allowPrivateHosts: ['127.0.0.1:*'] } });
    const admitted = await fetchPage(`${pages.literal}/page`, options);
    expect(admitted.ok).toBe(true);
    // The wildcard is for the host written: a name for it stays refused.
    expect(failure(await fetchPage(`${pages.origin}/page`, options)).reason).toBe('blocked_address');
  });

  it('rejects a malformed entry as a programming error', async () => {
    const options = testOptions({ policy: { allowPrivateHosts: ['localhost:http'] } });
    await expect(fetchPage(`${pages.origin}/page`, options)).rejects.toMatchObject({ code: 'CITATION_BAD_OPTIONS' });
  });
});

describe('fetchPage: agents and limits', () => {
  it('reuses one agent, and its connection, across calls', async () => {
    const options = testOptions();
    const agent = createFetchAgent(options);
    try {
      const before = server.connections;
      for (let i = 0; i < 3; i++) {
        const outcome = await fetchPage(`${server.origin}/page`, { ...options, dispatcher: agent });
        expect(outcome.ok).toBe(true);
      }
      // Redirect and error bodies are drained, so their connections are kept too.
      expect(
        failure(await fetchPage(`${server.origin}/r3`, { ...options, dispatcher: agent, maxRedirects: 1 })).reason,
      ).toBe('too_many_redirects');
      expect((await fetchPage(`${server.origin}/r3`, { ...options, dispatcher: agent })).ok).toBe(true);
      expect(server.connections - before).toBe(1);
    } finally {
      await agent.close();
    }
  });

  it('refuses a dispatcher that does not carry the DNS guard', async () => {
    const foreign = new Agent();
    try {
      const call = fetchPage(`${server.origin}/page`, { ...testOptions(), dispatcher: foreign });
      await expect(call).rejects.toBeInstanceOf(FetcherError);
      await expect(call).rejects.toMatchObject({ code: 'CITATION_BAD_OPTIONS' });
    } finally {
      await foreign.close();
    }
  });

  it('refuses an agent built for another allow-list', async () => {
    const agent = createFetchAgent(testOptions({ policy: { allowPrivateHosts: ['localhost', 'intranet.example'] } }));
    try {
      await expect(fetchPage(`${server.origin}/page`, { ...testOptions(), dispatcher: agent })).rejects.toMatchObject({
        code: 'CITATION_BAD_OPTIONS',
      });
    } finally {
      await agent.close();
    }
  });

  it('rejects invalid options as a programming error', async () => {
    await expect(fetchPage(`${server.origin}/page`, testOptions({ maxBytes: 0 }))).rejects.toMatchObject({
      code: 'CITATION_BAD_OPTIONS',
    });
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const slow = await startServer({ '/hang': () => undefined });
    try {
      const controller = new AbortController();
      const call = fetchPage(`${slow.origin}/hang`, testOptions({ signal: controller.signal }));
      await until('the request in flight', () => slow.requests.includes('/hang'), { everyMs: 10 });
      controller.abort(new Error('shutting down'));
      await expect(call).rejects.toThrow('shutting down');
    } finally {
      await slow.close();
    }
  });

  it('HostLimiter bounds the requests in flight to one host', async () => {
    // Counted in the handler, up to the moment the answer is sent, so the
    // count does not depend on when the server notices the response closed.
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = await startServer({
      '/slow': (_req, res) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        setTimeout(() => {
          inFlight--;
          res.end('done');
        }, 100);
      },
    });
    const options = testOptions();
    const agent = createFetchAgent(options);
    try {
      const limiter = new HostLimiter(2);
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          limiter.run(new URL(slow.origin).host, () =>
            fetchPage(`${slow.origin}/slow?i=${i}`, { ...options, dispatcher: agent }),
          ),
        ),
      );
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(slow.requests).toHaveLength(6);
      expect(maxInFlight).toBe(2);
    } finally {
      await agent.close();
      await slow.close();
    }
  });
});
