import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedAddressError } from '../../src/fetcher/errors.js';
import { createGuardedLookup } from '../../src/fetcher/resolver.js';
import { countedSoFar, fakeLookup, startServer, type LoopbackServer } from './loopback.js';

type Answer = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number | undefined };

function ask(lookup: net.LookupFunction, hostname: string, options: LookupOptions = { all: true }): Promise<Answer> {
  return new Promise((resolve) =>
    lookup(hostname, options, (err, address, family) => resolve({ err, address, family })),
  );
}

const DNS = {
  'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'loopback.test': ['127.0.0.1'],
  'mapped.test': ['::ffff:10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'intranet.example': ['10.0.0.7'],
  localhost: ['127.0.0.1', '::1'],
  'empty.test': [],
};

describe('createGuardedLookup', () => {
  const policy = { allowPrivateHosts: ['intranet.example', 'LOCALHOST:*'] };

  it('answers every address of a public name when asked for all', async () => {
    const lookup = fakeLookup(DNS);
    const answer = await ask(createGuardedLookup(policy, 80, lookup), 'public.test');
    expect(answer.err).toBeNull();
    expect(answer.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    expect(lookup.calls).toEqual(['public.test']);
  });

  it('answers the first address when asked for one, after checking them all', async () => {
    const answer = await ask(createGuardedLookup(policy, 80, fakeLookup(DNS)), 'public.test', { family: 0 });
    expect(answer).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    const mixed = await ask(createGuardedLookup(policy, 80, fakeLookup(DNS)), 'mixed.test', { family: 0 });
    expect((mixed.err as BlockedAddressError).code).toBe('CITATION_BLOCKED_ADDRESS');
  });

  it.each([
    ['mixed.test', '10.0.0.1 (private)'],
    ['loopback.test', '127.0.0.1 (loopback)'],
    ['mapped.test', '::ffff:10.0.0.1 (ipv4_mapped)'],
    ['metadata.test', '169.254.169.254 (link_local)'],
  ])('refuses %s, which resolves to %s', async (name, listed) => {
    const answer = await ask(createGuardedLookup(policy, 80, fakeLookup(DNS)), name);
    expect(answer.err).toBeInstanceOf(BlockedAddressError);
    const err = answer.err as BlockedAddressError;
    expect(err.code).toBe('CITATION_BLOCKED_ADDRESS');
    expect(err.hostname).toBe(name);
    expect(err.message).toContain(listed);
    // The public address of a mixed answer is not what was refused.
    expect(err.refused.map((r) => r.address)).not.toContain('93.184.216.34');
  });

  it('admits allow-listed names whatever they resolve to, and only those names', async () => {
    const lookup = createGuardedLookup(policy, 80, fakeLookup(DNS));
    expect((await ask(lookup, 'intranet.example')).address).toEqual([{ address: '10.0.0.7', family: 4 }]);
    expect((await ask(lookup, 'localhost')).err).toBeNull();
    // loopback.test resolves to the same kind of address localhost does: still refused.
    expect((await ask(lookup, 'loopback.test')).err).toBeInstanceOf(BlockedAddressError);
  });

  it('admits a listed name on its ports only', async () => {
    const dns = fakeLookup(DNS);
    const ports = { allowPrivateHosts: ['intranet.example:8080', 'localhost'] };
    expect((await ask(createGuardedLookup(ports, 8080, dns), 'intranet.example')).err).toBeNull();
    const other = (await ask(createGuardedLookup(ports, 6379, dns), 'intranet.example')).err as BlockedAddressError;
    expect(other).toBeInstanceOf(BlockedAddressError);
    expect(other.message).toBe(
      'intranet.example:6379 resolves to a non-public address: 10.0.0.7 (private)' +
        ' (the allow-list admits intranet.example on other ports only)',
    );
    // Without a port, the default ports and no other.
    expect((await ask(createGuardedLookup(ports, 80, dns), 'localhost')).err).toBeNull();
    expect((await ask(createGuardedLookup(ports, 443, dns), 'localhost')).err).toBeNull();
    expect((await ask(createGuardedLookup(ports, 6379, dns), 'localhost')).err).toBeInstanceOf(BlockedAddressError);
  });

  it('passes resolver failures through, and treats an empty answer as not found', async () => {
    const lookup = createGuardedLookup(policy, 80, fakeLookup(DNS));
    expect((await ask(lookup, 'nowhere.test')).err?.code).toBe('ENOTFOUND');
    expect((await ask(lookup, 'empty.test')).err?.code).toBe('ENOTFOUND');
  });

  it('asks the resolver for all addresses, keeping the caller family and hints', async () => {
    const seen: unknown[] = [];
    const lookup = createGuardedLookup(policy, 80, (hostname, options, callback) => {
      seen.push(options);
      callback(null, [{ address: '93.184.216.34', family: 4 }]);
    });
    await ask(lookup, 'public.test', { family: 4, hints: 32 });
    expect(seen).toEqual([{ family: 4, hints: 32, all: true }]);
  });

  it('uses dns.lookup by default (localhost from the hosts file)', async () => {
    const guarded = createGuardedLookup({ allowPrivateHosts: [] }, 80);
    const refused = await ask(guarded, 'localhost');
    expect(refused.err).toBeInstanceOf(BlockedAddressError);
    const admitted = await ask(createGuardedLookup({ allowPrivateHosts: ['localhost'] }, 80), 'localhost');
    expect(admitted.err).toBeNull();
  });
});

describe('the guard inside net.connect', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function connect(host: string, lookup: net.LookupFunction): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect({ host, port: server.port, lookup });
      socket.once('connect', () => {
        resolve(`connected to ${socket.remoteAddress}`);
        socket.destroy();
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
    });
  }

  it('connects to the address it checked', async () => {
    const dns = fakeLookup({ 'intranet.example': ['127.0.0.1'] });
    const lookup = createGuardedLookup({ allowPrivateHosts: [`intranet.example:${server.port}`] }, server.port, dns);
    expect(await connect('intranet.example', lookup)).toBe('connected to 127.0.0.1');
    // One resolution per connection: nothing asks the DNS a second time.
    expect(dns.calls).toEqual(['intranet.example']);
  });

  it('fails the socket before connecting when a name resolves privately', async () => {
    // The connections of earlier tests, counted before this one starts.
    await countedSoFar(server);
    const before = server.connections;
    const lookup = createGuardedLookup(
      { allowPrivateHosts: [] },
      server.port,
      fakeLookup({ 'evil.test': ['127.0.0.1'] }),
    );
    expect(await connect('evil.test', lookup)).toBe('error CITATION_BLOCKED_ADDRESS');
    // Had the refused socket connected, it would be counted before this barrier's own connection.
    await countedSoFar(server);
    expect(server.connections).toBe(before + 1);
  });

  it('is not consulted for an IP literal, which is why URLs are checked first', async () => {
    const dns = fakeLookup({});
    const lookup = createGuardedLookup({ allowPrivateHosts: [] }, server.port, dns);
    expect(await connect('127.0.0.1', lookup)).toBe('connected to 127.0.0.1');
    expect(dns.calls).toEqual([]);
  });
});
