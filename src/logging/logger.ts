/**
 * pino, with secrets redacted wherever they may appear (the API key in the
 * config, in request headers, in errors), pretty on a terminal and JSON
 * otherwise.
 */
import { pino, type Logger } from 'pino';

export const REDACT_PATHS = [
  'apiKey',
  'api_key',
  '*.apiKey',
  '*.api_key',
  '*.*.api_key',
  'config.anthropic.api_key',
  'anthropic.api_key',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.authorization',
  'err.headers["x-api-key"]',
  'password',
  '*.password',
  'redisUrl',
  'token',
  '*.token',
  'api_token',
  '*.api_token',
  '*.*.api_token',
];

export interface LoggerOptions {
  level: string;
  format: 'auto' | 'json' | 'pretty';
  /** Whether standard output is a terminal (for `auto`). */
  isTty: boolean;
  destination?: pino.DestinationStream;
}

/** Hides the password of a redis://user:password@host URL. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):([^@/]*)@/, '//$1:[Redacted]@');
}

export function createLogger(options: LoggerOptions): Logger {
  const pretty = options.format === 'pretty' || (options.format === 'auto' && options.isTty);
  const base = {
    name: 'cosci-safety',
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
  };
  if (options.destination) return pino(base, options.destination);
  if (pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } });
  return pino(base);
}
