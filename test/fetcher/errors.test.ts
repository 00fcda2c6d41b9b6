import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { BlockedAddressError, networkFailure } from '../../src/fetcher/errors.js';

function coded(code: string, message = code): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('networkFailure', () => {
  it('names the failures of the network', () => {
    expect(networkFailure(new BlockedAddressError('evil.test', [{ address: '10.0.0.1', kind: 'private' }]))).toEqual({
      reason: 'blocked_address',
      detail: 'evil.test resolves to a non-public address: 10.0.0.1 (private)',
    });
    expect(networkFailure(coded('ENOTFOUND'))?.reason).toBe('dns_error');
    expect(networkFailure(coded('EAI_AGAIN'))?.reason).toBe('dns_error');
    expect(networkFailure(new errors.ConnectTimeoutError())?.reason).toBe('timeout');
    expect(networkFailure(new errors.HeadersTimeoutError())?.reason).toBe('timeout');
    expect(networkFailure(new errors.BodyTimeoutError())?.reason).toBe('timeout');
    expect(networkFailure(coded('ECONNRESET'))?.reason).toBe('connection_error');
    expect(networkFailure(coded('CERT_HAS_EXPIRED'))?.reason).toBe('connection_error');
    expect(networkFailure(new errors.SocketError('other side closed'))?.reason).toBe('connection_error');
  });

  it("reads the race of address families through its attempts' errors", () => {
    const race = new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:80'), coded('ECONNREFUSED')]);
    const failure = networkFailure(race);
    expect(failure?.reason).toBe('connection_error');
    expect(failure?.detail).toContain('::1:80');
  });

  it('leaves programming errors to be thrown', () => {
    expect(networkFailure(new errors.InvalidArgumentError('bad option'))).toBeUndefined();
    expect(networkFailure(new errors.ClientDestroyedError())).toBeUndefined();
    expect(networkFailure(new TypeError('x is not a function'))).toBeUndefined();
    expect(networkFailure(coded('ERR_INVALID_ARG_TYPE'))).toBeUndefined();
  });
});
