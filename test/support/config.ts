/** A test configuration: unique Redis names, the fake model server, short delays. */
import { ConfigSchema, type Config } from '../../src/config/schema.js';
import { REDIS_URL, uniqueName } from './redis.js';

type Sections = { [K in keyof Config]?: Partial<Config[K]> };

export function testConfig(baseUrl: string | undefined, overrides: Sections = {}): Config {
  const id = uniqueName('cs');
  return ConfigSchema.parse({
    redis: {
      url: REDIS_URL,
      prefix: `${id}-bull`,
      key_prefix: `${id}-k`,
      events_stream: `${id}-k:events`,
      ...overrides.redis,
    },
    worker: { concurrency: 8, shutdown_timeout_ms: 3000, ...overrides.worker },
    metrics: { port: 0, host: '127.0.0.1', ...overrides.metrics },
    safety: { ...overrides.safety },
    models: { ...overrides.models },
    anthropic: {
      ...(baseUrl ? { api_key: 'sk-test-secret-key', base_url: baseUrl } : {}),
      timeout_ms: 2000,
      retry_base_delay_ms: 10,
      retry_max_delay_ms: 50,
      ...overrides.anthropic,
    },
    citations: { ...overrides.citations },
    review: { ...overrides.review },
    logging: { level: 'silent', ...overrides.logging },
  });
}

/** Every key the test configuration may have written starts with this. */
export function keyPrefixes(config: Config): string[] {
  return [config.redis.prefix, config.redis.key_prefix];
}
