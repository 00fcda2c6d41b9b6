import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from '../src/logging/logger.js';
import { loadConfig } from '../src/config/load.js';

describe('logging', () => {
  it('never writes the API key, however it is logged', () => {
    let out = '';
    const destination = new Writable({
      write(chunk, _enc, cb) {
        out += String(chunk);
        cb();
      },
    });
    const logger = createLogger({ level: 'info', format: 'json', isTty: false, destination });
    const { config } = loadConfig({ env: { ANTHROPIC_API_KEY: 'sk-ant-very-secret' }, file: '/dev/null' });
    logger.info({ config }, 'config');
    logger.info({ anthropic: config.anthropic }, 'section');
    logger.info({ apiKey: 'sk-ant-very-secret' }, 'direct');
    logger.info(
      { headers: { 'x-api-key': 'sk-ant-very-secret', authorization: 'Bearer sk-ant-very-secret' } },
      'headers',
    );
    expect(out.split('\n').filter(Boolean)).toHaveLength(4);
    expect(out).not.toContain('sk-ant-very-secret');
    expect(out).toContain('[Redacted]');
  });

  it('hides the password of a Redis URL', () => {
    expect(redactUrl('redis://user:hunter2@redis:6379/0')).toBe('redis://user:[Redacted]@redis:6379/0');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
