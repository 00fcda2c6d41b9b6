import { describe, expect, it } from 'vitest';
import { normalizeHost, parseAllowEntry } from '../../src/fetcher/allow-list.js';
import { checkUrl, isAllowedHost, type FetchPolicy } from '../../src/fetcher/url-policy.js';

const NONE: FetchPolicy = { allowPrivateHosts: [] };

function reason(raw: string, policy: FetchPolicy = NONE): string {
  const check = checkUrl(raw, policy);
  return check.ok ? 'ok' : check.reason;
}

describe('checkUrl', () => {
  it('accepts public http and https URLs', () => {
    const check = checkUrl('https://Example.org/a/b?q=1#frag', NONE);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.url.hostname).toBe('example.org');
    expect(reason('http://93.184.216.34:8080/')).toBe('ok');
    expect(reason('http://[2606:4700:4700::1111]/')).toBe('ok');
  });

  it('leaves host names to the DNS guard, even ones that look local', () => {
    // Names are checked when resolved; refusing "localhost" here and missing
    // "localtest.me" would only give a false sense of coverage.
    expect(reason('http://localhost/')).toBe('ok');
    expect(reason('http://metadata.google.internal/')).toBe('ok');
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1:8080/admin',
    'http://127.255.255.254/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.0.1/',
    'http://0.0.0.0/',
    'http://0.0.0.0:8080/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ])('refuses the IPv4 literal %s', (raw) => {
    expect(reason(raw)).toBe('blocked_address');
  });

  it.each([
    ['decimal', 'http://2130706433/'],
    ['hex', 'http://0x7f.1/'],
    ['hex dotted', 'http://0x7f.0x0.0x0.0x1/'],
    ['octal', 'http://0177.0.0.1/'],
    ['short', 'http://127.1/'],
    ['short with a trailing dot', 'http://127.1./'],
    ['decimal metadata', 'http://2852039166/'],
    ['hex metadata', 'http://0xa9fea9fe/'],
    ['octal private', 'http://012.0.0.1/'],
    ['zero', 'http://0/'],
  ])('refuses the %s IPv4 spelling %s', (_kind, raw) => {
    expect(reason(raw)).toBe('blocked_address');
  });

  it.each([
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001::1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'https://[2001:db8::1]:8443/',
  ])('refuses the IPv6 literal %s', (raw) => {
    expect(reason(raw)).toBe('blocked_address');
  });

  it('refuses an IPv6 literal with a zone index (the URL parser rejects zones)', () => {
    expect(reason('http://[fe80::1%25eth0]/')).toBe('invalid_url');
    expect(reason('http://[fe80::1%eth0]/')).toBe('invalid_url');
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.org/file',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'gopher://127.0.0.1:6379/_INFO',
    'ws://example.org/',
    'blob:https://example.org/uuid',
  ])('refuses the scheme of %s', (raw) => {
    expect(reason(raw)).toBe('unsupported_scheme');
  });

  it('refuses credentials without echoing them', () => {
    for (const raw of ['http://user:pass@example.org/', 'http://user@example.org/', 'https://:secret@example.org/']) {
      const check = checkUrl(raw, NONE);
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).toBe('invalid_url');
        expect(check.detail).not.toMatch(/pass|secret|user/);
      }
    }
  });

  it.each(['', 'not a url', '/relative/path', 'http://', 'http://exa mple.org/', 'http://[::1/'])(
    'refuses %j as invalid',
    (raw) => {
      expect(reason(raw)).toBe('invalid_url');
    },
  );

  it('keeps the echoed URL short', () => {
    const check = checkUrl(`not a url ${'x'.repeat(10_000)}`, NONE);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.detail.length).toBeLessThan(300);
  });
});

describe('the allow-list', () => {
  it('admits listed IP literals on their ports, in any spelling', () => {
    const policy: FetchPolicy = { allowPrivateHosts: ['127.0.0.1:8080', '[::1]:8080', '10.1.2.3:*'] };
    expect(reason('http://127.0.0.1:8080/', policy)).toBe('ok');
    expect(reason('http://2130706433:8080/', policy)).toBe('ok');
    expect(reason('http://[::1]:8080/', policy)).toBe('ok');
    expect(reason('http://[0::1]:8080/', policy)).toBe('ok');
    expect(reason('http://10.1.2.3/', policy)).toBe('ok');
    expect(reason('https://10.1.2.3:6379/', policy)).toBe('ok');
    // Only those: the rest of the range and the other ports stay refused.
    expect(reason('http://127.0.0.2:8080/', policy)).toBe('blocked_address');
    expect(reason('http://10.1.2.4/', policy)).toBe('blocked_address');
    expect(reason('http://[::ffff:127.0.0.1]:8080/', policy)).toBe('blocked_address');
    expect(reason('http://127.0.0.1/', policy)).toBe('blocked_address');
    expect(reason('http://127.0.0.1:6379/', policy)).toBe('blocked_address');
    expect(reason('http://[::1]:6379/', policy)).toBe('blocked_address');
  });

  it('admits an entry without a port on the default ports only', () => {
    const policy: FetchPolicy = { allowPrivateHosts: ['127.0.0.1', '::1'] };
    expect(reason('http://127.0.0.1/', policy)).toBe('ok');
    expect(reason('https://127.0.0.1/', policy)).toBe('ok');
    expect(reason('http://127.0.0.1:80/', policy)).toBe('ok');
    expect(reason('http://127.0.0.1:443/', policy)).toBe('ok');
    expect(reason('http://[::1]/', policy)).toBe('ok');
    expect(reason('http://127.0.0.1:6379/', policy)).toBe('blocked_address');
    expect(reason('https://127.0.0.1:8443/', policy)).toBe('blocked_address');
    expect(reason('http://[::1]:6379/', policy)).toBe('blocked_address');
  });

  it('names the port refused, and says when the host is listed for others', () => {
    const policy: FetchPolicy = { allowPrivateHosts: ['127.0.0.1:8080'] };
    const listed = checkUrl('http://127.0.0.1:6379/', policy);
    expect(listed.ok || listed.detail).toBe(
      '127.0.0.1:6379 is a loopback address (the allow-list admits 127.0.0.1 on other ports only)',
    );
    const other = checkUrl('http://[::1]/', policy);
    expect(other.ok || other.detail).toBe('[::1]:80 is a loopback address');
  });

  it('matches names exactly and case-insensitively', () => {
    const policy: FetchPolicy = { allowPrivateHosts: ['LocalHost:*', 'intranet.example'] };
    expect(isAllowedHost('localhost', 6379, policy)).toBe(true);
    expect(isAllowedHost('INTRANET.example', 443, policy)).toBe(true);
    expect(isAllowedHost('intranet.example', 8443, policy)).toBe(false);
    expect(isAllowedHost('localhost.', 80, policy)).toBe(false);
    expect(isAllowedHost('a.localhost', 80, policy)).toBe(false);
    expect(isAllowedHost('intranet.example.evil.test', 80, policy)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 80, policy)).toBe(false);
  });

  it('normalizes hosts as the URL parser writes them', () => {
    expect(normalizeHost('[0:0::1]')).toBe('::1');
    expect(normalizeHost('::FFFF:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(normalizeHost(' Example.ORG ')).toBe('example.org');
  });

  it.each([
    ['localhost', 'localhost', [80, 443]],
    ['LocalHost:8080', 'localhost', [8080]],
    ['127.0.0.1:*', '127.0.0.1', 'any'],
    ['[::1]:8080', '::1', [8080]],
    ['[0:0::1]', '::1', [80, 443]],
    ['::1', '::1', [80, 443]],
    ['::1:8080', '::1:8080', [80, 443]],
    ['[::1]:*', '::1', 'any'],
  ])('reads the entry %j as host %j on ports %j', (raw, host, ports) => {
    expect(parseAllowEntry(raw)).toEqual({ ok: true, entry: { host, ports } });
  });

  it.each([
    '',
    ':8080',
    'localhost:',
    'localhost:0',
    'localhost:65536',
    'localhost:http',
    'localhost:80:80',
    'http://localhost',
    '[::1',
    '[::1]8080',
    '[localhost]:80',
    '127.0.0.1:-1',
  ])('refuses the malformed entry %j', (raw) => {
    const parsed = parseAllowEntry(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toContain('expected `host`, `host:port`');
    // A malformed entry admits nothing, even the host it seems to name.
    expect(isAllowedHost('localhost', 80, { allowPrivateHosts: [raw] })).toBe(false);
  });
});
