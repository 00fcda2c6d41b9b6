import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { DEFAULT_INJECTION_THRESHOLD } from '../../src/safety/injection/index.js';

function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cosci-config-'));
  const path = join(dir, 'cosci-safety.toml');
  writeFileSync(path, text);
  return path;
}

function error(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const { config } = loadConfig({ env: {}, file: file('') });
    expect(config.safety).toMatchObject({
      enable_classifier: true,
      classifier_block_categories: ['cbrn', 'csam', 'weapons', 'illicit_synthesis'],
      classifier_warn_categories: ['dual_use_bio'],
      classifier_quarantine_threshold: 0.6,
      classifier_on_error: 'quarantine',
      classifier_window_chars: 8000,
    });
    expect(config.models.classifier).toBe('claude-haiku-4-5-20251001');
    expect(config.redis.prefix).toBe('bull');
    expect(config.redis.events_stream).toBe('cosci:events');
    expect(config.metrics.port).toBe(9464);
    // Two minutes for a review's citations: six times the bound on one fetch.
    expect(config.citations.review_deadline_ms).toBe(120_000);
    expect(error(() => loadConfig({ env: {}, file: file('[citations]\nreview_deadline_ms = 0\n') })).message).toMatch(
      /citations\.review_deadline_ms: /,
    );
  });

  it('reads the TOML file of the design', () => {
    const { config } = loadConfig({
      env: {},
      file: file(`[safety]
enable_classifier = true
classifier_block_categories = ["cbrn", "csam"]
classifier_warn_categories = ["dual_use_bio", "weapons"]
[models]
classifier = "claude-haiku-4-5-20251001"
`),
    });
    expect(config.safety.classifier_block_categories).toEqual(['cbrn', 'csam']);
    expect(config.safety.classifier_warn_categories).toEqual(['dual_use_bio', 'weapons']);
  });

  it('lets the environment override the file', () => {
    const { config } = loadConfig({
      env: {
        REDIS_URL: 'redis://10.0.0.9:6380',
        ANTHROPIC_API_KEY: 'sk-env',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:1/',
      },
      file: file('[redis]\nurl = "redis://127.0.0.1:6379"\n[anthropic]\napi_key = "sk-file"\n'),
    });
    expect(config.redis.url).toBe('redis://10.0.0.9:6380');
    expect(config.anthropic.api_key).toBe('sk-env');
    expect(config.anthropic.base_url).toBe('http://127.0.0.1:1/');
  });

  it('names the key and the expected form of a wrong value', () => {
    const e = error(() => loadConfig({ env: {}, file: file('[safety]\nclassifier_on_error = "ignore"\n') }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toMatch(/safety\.classifier_on_error: .*"quarantine".*"allow"/);
    expect(
      error(() => loadConfig({ env: {}, file: file('[safety]\nclassifier_quarantine_threshold = 1.5\n') })).message,
    ).toMatch(/safety\.classifier_quarantine_threshold: .*1/);
    expect(
      error(() => loadConfig({ env: {}, file: file('[safety]\nclassifier_warn_categories = ["bio"]\n') })).message,
    ).toMatch(/safety\.classifier_warn_categories\.0: /);
    expect(error(() => loadConfig({ env: {}, file: file('[safety]\nenable_clasifier = true\n') })).message).toContain(
      'safety.enable_clasifier: unknown key',
    );
    expect(
      error(() =>
        loadConfig({
          env: {},
          file: file('[safety]\nclassifier_block_categories = ["cbrn"]\nclassifier_warn_categories = ["cbrn"]\n'),
        }),
      ).message,
    ).toContain('both the block and the warn list: cbrn');
  });

  it("takes safety.injection_threshold from 0 to 1, the detector's default unless set, and names it when wrong", () => {
    expect(loadConfig({ env: {}, file: file('') }).config.safety.injection_threshold).toBe(DEFAULT_INJECTION_THRESHOLD);
    expect(
      loadConfig({ env: {}, file: file('[safety]\ninjection_threshold = 0.85\n') }).config.safety.injection_threshold,
    ).toBe(0.85);
    for (const bad of ['1.5', '-0.2', '"high"']) {
      const err = error(() => loadConfig({ env: {}, file: file(`[safety]\ninjection_threshold = ${bad}\n`) }));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.code, bad).toBe('CONFIG_INVALID');
      expect(err.message, bad).toContain('safety.injection_threshold: expected a number from 0 to 1');
    }
  });

  it('refuses a Redis URL that is not one, naming the variable it came from and never echoing it', () => {
    const fromEnv = error(() => loadConfig({ env: { REDIS_URL: 'notaurl' } }));
    expect(fromEnv.code).toBe('CONFIG_INVALID');
    expect(fromEnv.message).toContain('redis.url (from REDIS_URL): expected a redis:// or rediss:// URL');
    const fromFile = error(() =>
      loadConfig({ env: {}, file: file('[redis]\nurl = "http://admin:hunter2@redis.internal:6379"\n') }),
    );
    expect(fromFile.message).toMatch(
      /^invalid configuration in .*: redis\.url: expected a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(fromFile.message).not.toContain('hunter2');
    const cluster = loadConfig({
      env: { REDIS_URL: 'redis://10.0.0.1:7000, rediss://:pw@10.0.0.2:7001' },
      file: file('[redis]\ncluster = true\nprefix = "{bull}"\nkey_prefix = "{c}"\nevents_stream = "{c}:events"\n'),
    });
    expect(cluster.config.redis.url).toBe('redis://10.0.0.1:7000, rediss://:pw@10.0.0.2:7001');
    expect(error(() => loadConfig({ env: { REDIS_URL: 'redis://10.0.0.1:7000,10.0.0.2:7001' } })).code).toBe(
      'CONFIG_INVALID',
    );
  });

  it('takes a database as the path of the URL, and refuses one that is not a whole number, or on a cluster', () => {
    expect(loadConfig({ env: { REDIS_URL: 'redis://127.0.0.1:6379/3' } }).config.redis.url).toBe(
      'redis://127.0.0.1:6379/3',
    );
    expect(loadConfig({ env: { REDIS_URL: 'redis://127.0.0.1:6379/' } }).config.redis.url).toBe(
      'redis://127.0.0.1:6379/',
    );
    // The first four connected to database 0 before: ioredis sends SELECT with what the path holds, and
    // goes on in database 0 when that fails. The query form worked, and is refused for one way to say it.
    for (const [url, says] of [
      ['redis://127.0.0.1:6379/x', "a whole number such as /0 or /2; got '/x'"],
      ['redis://127.0.0.1:6379/1/2', "got '/1/2'"],
      ['redis://127.0.0.1:6379/-1', "got '/-1'"],
      ['redis://127.0.0.1:6379/99999999999', "got '/99999999999'"],
      ['redis://:hunter2@127.0.0.1:6379?db=2', 'not as ?db='],
    ] as const) {
      const e = error(() => loadConfig({ env: { REDIS_URL: url } }));
      expect(e.code).toBe('CONFIG_INVALID');
      expect(e.message).toMatch(/^invalid configuration: redis\.url \(from REDIS_URL\): [^\n]+$/);
      expect(e.message).toContain(says);
      expect(e.message).not.toContain('hunter2');
    }
    const cluster = '[redis]\ncluster = true\nprefix = "{bull}"\nkey_prefix = "{c}"\nevents_stream = "{c}:events"\n';
    const e = error(() =>
      loadConfig({ env: { REDIS_URL: 'redis://10.0.0.1:7000/0,redis://10.0.0.2:7001/2' }, file: file(cluster) }),
    );
    expect(e.message).toContain('redis.url (from REDIS_URL): Redis Cluster has only database 0');
    expect(
      loadConfig({ env: { REDIS_URL: 'redis://10.0.0.1:7000/0,redis://10.0.0.2:7001' }, file: file(cluster) }).config
        .redis.cluster,
    ).toBe(true);
  });

  it('reads allow_private_hosts entries with their ports, and names a malformed one', () => {
    const toml = '[citations]\nallow_private_hosts = ["intranet.example", "127.0.0.1:8080", "[::1]:*"]\n';
    expect(loadConfig({ env: {}, file: file(toml) }).config.citations.allow_private_hosts).toEqual([
      'intranet.example',
      '127.0.0.1:8080',
      '[::1]:*',
    ]);
    const e = error(() =>
      loadConfig({ env: {}, file: file('[citations]\nallow_private_hosts = ["ok.example", "127.0.0.1:redis"]\n') }),
    );
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('citations.allow_private_hosts.1: "127.0.0.1:redis" has a port that is not 1-65535');
    expect(e.message).toContain('`host:port`');
  });

  it('refuses a Redis Cluster configuration whose keys would not share their slots, naming each key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cosci-config-'));
    const file = join(dir, 'cluster.toml');
    writeFileSync(
      file,
      '[redis]\ncluster = true\nprefix = "{bull}"\nkey_prefix = "cosci"\nevents_stream = "cosci:events"\n',
    );
    expect(() => loadConfig({ file, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ file, env: {} })).toThrow(/redis\.key_prefix[\s\S]*hash tag[\s\S]*redis\.events_stream/);
    // The verdict store appends events in its own scripts: the stream shares key_prefix's slot.
    writeFileSync(
      file,
      '[redis]\ncluster = true\nprefix = "{bull}"\nkey_prefix = "{cosci}"\nevents_stream = "{events}:cosci"\n',
    );
    expect(() => loadConfig({ file, env: {} })).toThrow(
      /redis\.events_stream[\s\S]*hash tag of key_prefix \("\{cosci\}"\)/,
    );
    writeFileSync(
      file,
      '[redis]\ncluster = true\nprefix = "{bull}"\nkey_prefix = "{cosci}"\nevents_stream = "{cosci}:events"\n',
    );
    expect(loadConfig({ file, env: {} }).config.redis.cluster).toBe(true);
  });

  it('reports invalid TOML with its line and a missing file with its path', () => {
    expect(error(() => loadConfig({ env: {}, file: file('[safety\n') })).message).toMatch(/invalid TOML \(line 1/);
    const missing = error(() => loadConfig({ env: {}, file: '/nonexistent/cosci.toml' }));
    expect(missing.code).toBe('CONFIG_NOT_FOUND');
    expect(missing.message).toContain('/nonexistent/cosci.toml');
  });
});

describe('cosci-safety.example.toml', () => {
  it('parses, and its values are the defaults', () => {
    const fromExample = loadConfig({
      env: {},
      file: new URL('../../cosci-safety.example.toml', import.meta.url).pathname,
    }).config;
    const defaults = loadConfig({ env: {}, file: file('') }).config;
    expect(fromExample).toEqual(defaults);
  });
});
