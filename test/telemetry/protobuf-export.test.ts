/**
 * The default protocol, OTLP/HTTP with protobuf: startTracing, given only
 * an endpoint, exports a span it is handed to `/v1/traces` of a receiver on
 * loopback as `application/x-protobuf`, with the trace id inside, and shuts
 * down once. (The JSON encoding, decoded span by span, is in traces.test.ts.)
 * The exporter reads the process's environment, as the worker's does.
 */
import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTracing } from '../../src/telemetry/tracing.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
});
afterAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  trace.disable();
  await receiver?.close();
});

it('exports protobuf to /v1/traces when no protocol is named', async () => {
  const tracing = await startTracing(process.env, { logger: pino({ level: 'silent' }), version: '0.0.0-test' });
  expect(tracing?.settings).toMatchObject({ protocol: 'http/protobuf', serviceName: 'cosci-safety' });
  const span = trace.getTracer('test').startSpan('probe');
  const { traceId } = span.spanContext();
  span.end();
  // Shutting down exports what is buffered; a second call is the same one.
  await Promise.all([tracing!.shutdown(), tracing!.shutdown()]);
  expect(receiver.requests.map((r) => [r.method, r.path, r.contentType])).toEqual([
    ['POST', '/v1/traces', 'application/x-protobuf'],
  ]);
  // Protobuf carries the trace id as its 16 bytes.
  expect(receiver.bodies[0]!.includes(Buffer.from(traceId, 'hex'))).toBe(true);
});
