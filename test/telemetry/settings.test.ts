/**
 * Which environment starts tracing (src/telemetry/tracing.ts), and a value
 * that cannot be honoured: one line from `cosci-safety worker`, naming the
 * variable, before anything is opened.
 */
import { describe, expect, it } from 'vitest';
import { tracingSettings } from '../../src/telemetry/tracing.js';
import { runCli } from '../support/cli.js';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318' };

describe('tracingSettings', () => {
  it('is off without an OTLP endpoint, whatever else is set', () => {
    expect(tracingSettings({})).toEqual({ enabled: false, why: 'no OTLP endpoint' });
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }).enabled).toBe(false);
  });

  it('is on with either endpoint variable, in http/protobuf unless told otherwise', () => {
    expect(tracingSettings(ENDPOINT)).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      endpoint: 'http://collector.internal:4318',
      serviceName: 'cosci-safety',
    });
    const traces = tracingSettings({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:secret@otlp.example/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'safety-eu',
    });
    // The credentials never reach what is logged.
    expect(traces).toEqual({
      enabled: true,
      protocol: 'http/json',
      endpoint: 'https://otlp.example',
      serviceName: 'safety-eu',
    });
  });

  it('is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, an endpoint set', () => {
    expect(tracingSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' }).enabled).toBe(false);
    expect(tracingSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: 'false' }).enabled).toBe(true);
    expect(tracingSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
    expect(tracingSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'otlp' }).enabled).toBe(true);
  });

  it('refuses what it cannot honour, naming the variable', () => {
    expect(() => tracingSettings({ ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /^OTEL_EXPORTER_OTLP_PROTOCOL: expected http\/protobuf or http\/json, got 'grpc' \(OTLP over gRPC is not supported/,
    );
    expect(() => tracingSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /^OTEL_TRACES_EXPORTER: only otlp \(or none\) is supported, got 'zipkin'$/,
    );
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' })).toThrow(
      /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: expected an http:\/\/ or https:\/\/ URL/,
    );
  });
});

it('cosci-safety worker with OTLP over gRPC asked for stops in one line, CONFIG_INVALID, exit 1', async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const r = await runCli(['worker'], {
    env: { ...env, ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', COSCI_SAFETY_CONFIG: undefined },
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^cosci-safety: CONFIG_INVALID: OTEL_EXPORTER_OTLP_PROTOCOL: expected [^\n]*\n$/);
});
