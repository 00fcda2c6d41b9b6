/**
 * The boundary attributes: an escaped id and a keyed hash.
 *
 * The hash is HMAC-SHA-256 over the id and the quoted content, under a secret
 * key. A plain hash of the content would not do: the attacker writes the
 * content, so could compute it and forge a closing tag that looks genuine.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { QuotingError } from './errors.js';

/** Hex digits of the HMAC kept in the tag (64 bits). */
export const HASH_HEX_DIGITS = 16;

/** Longest id accepted, in characters, before escaping. */
export const MAX_ID_LENGTH = 256;

/** The key used when a call gives none: random, and new in every process. */
const PROCESS_KEY: Buffer = randomBytes(32);

export function processKey(): Buffer {
  return PROCESS_KEY;
}

/** Accepts a key as bytes or as a hex string of at least 16 bytes. */
export function parseKey(key: Uint8Array | string): Buffer {
  if (typeof key === 'string') {
    if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(key)) {
      throw new QuotingError(
        'QUOTING_BAD_KEY',
        'quoting key must be a hex string of at least 32 hex digits (16 bytes)',
      );
    }
    return Buffer.from(key, 'hex');
  }
  if (key.length < 16) throw new QuotingError('QUOTING_BAD_KEY', 'quoting key must be at least 16 bytes');
  return Buffer.from(key);
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Escapes an id for the attribute: anything but ASCII letters, digits and
 * `-_.:` becomes `~HH` per UTF-8 byte, so no quote, bracket, ampersand, space
 * or invisible character can reach the tag. Not percent-encoding: the
 * normalised view decodes `%3C` as `<`, so `%3CTEXT` in an id would read as a
 * tag inside our own.
 */
export function escapeId(id: string): string {
  if (typeof id !== 'string' || id.length === 0) {
    throw new QuotingError('QUOTING_BAD_ID', 'id must be a non-empty string');
  }
  if (id.length > MAX_ID_LENGTH) {
    throw new QuotingError('QUOTING_BAD_ID', `id must be at most ${MAX_ID_LENGTH} characters`);
  }
  return id.replace(/[^A-Za-z0-9\-_.:]/gu, (ch) => {
    const bytes = Buffer.from(LONE_SURROGATE.test(ch) ? '\ufffd' : ch, 'utf8');
    let out = '';
    for (const b of bytes) out += '~' + b.toString(16).toUpperCase().padStart(2, '0');
    return out;
  });
}

/** HMAC-SHA-256(key, tag name NUL escaped id NUL content), first HASH_HEX_DIGITS hex digits. */
export function boundaryHash(key: Buffer, tag: string, escapedId: string, content: string): string {
  return createHmac('sha256', key)
    .update(tag)
    .update('\0')
    .update(escapedId)
    .update('\0')
    .update(content)
    .digest('hex')
    .slice(0, HASH_HEX_DIGITS);
}
