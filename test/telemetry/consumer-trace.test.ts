/**
 * The trace context of an event, in one process against real Redis, with
 * the SDK's in-memory exporter: the emitter appends the event in a span of
 * its own whose context the entry carries, and the EventConsumer, given
 * BullMQ's telemetry (`bullmq-otel`), handles it inside a span that
 * continues that trace. An entry whose `traceparent` is not one is handled
 * all the same, without it.
 */
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { BullMQOtel } from 'bullmq-otel';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HypothesisEventData } from '../../src/contracts/events.js';
import { EventConsumer, type ConsumedEvent } from '../../src/events/consumer.js';
import { createEventEmitter } from '../../src/events/emitter.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const stream = uniqueName('traced-events');
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  await deleteKeys(redis, stream);
  redis.disconnect();
});

const data: HypothesisEventData = {
  hypothesisId: 'h-1',
  revision: 1,
  action: 'quarantine',
  categories: ['dual_use_bio'],
  confidence: 0.9,
  rationale: 'r',
  degraded: false,
  model: 'm',
  refusal: false,
  windowed: false,
};

it('an event carries its emit span, and the consumer continues the trace from it', async () => {
  const emitter = createEventEmitter({ redis, stream, dedupeTtlSeconds: 600, maxLen: 0 });
  await trace.getTracer('test').startActiveSpan('job', async (job) => {
    await emitter.emit('hypothesis_quarantined', 'q/h-1', data);
    // A job run again: the same event, not appended twice, its span says so.
    await emitter.emit('hypothesis_quarantined', 'q/h-1', data);
    job.end();
  });
  // Another producer's entry, whose trace context is not one.
  await redis.xadd(
    stream,
    '*',
    'type',
    'hypothesis_quarantined',
    'eventId',
    'q/h-2',
    'data',
    JSON.stringify({ ...data, hypothesisId: 'h-2' }),
    'traceparent',
    'not-a-traceparent',
  );

  const handled: Array<{ event: ConsumedEvent<'hypothesis_quarantined'>; active: string | undefined }> = [];
  const consumer = new EventConsumer({
    connection: redis.duplicate(),
    stream,
    group: 'traced',
    startId: '0',
    blockMs: 100,
    types: ['hypothesis_quarantined'],
    telemetry: new BullMQOtel(),
    handle(event) {
      handled.push({ event, active: trace.getActiveSpan()?.spanContext().spanId });
    },
  });
  await consumer.start();
  try {
    await until('both entries handled', () => handled.length === 2, { timeoutMs: 10_000 });
  } finally {
    await consumer.close();
  }

  const spans = exporter.getFinishedSpans();
  const job = spans.find((s) => s.name === 'job')!;
  const emits = spans.filter((s) => s.name === 'emit hypothesis_quarantined');
  expect(emits.map((s) => s.attributes['cosci.event.appended'])).toEqual([true, false]);
  const [emit] = emits;
  expect(emit!.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
  expect(emit!.attributes).toMatchObject({ 'messaging.destination.name': stream, 'messaging.message.id': 'q/h-1' });

  const [first, second] = handled;
  expect(first!.event.traceparent).toBe(`00-${emit!.spanContext().traceId}-${emit!.spanContext().spanId}-01`);
  const processed = spans.filter((s) => s.name === 'process hypothesis_quarantined');
  expect(processed).toHaveLength(2);
  const continued = processed.find((s) => s.spanContext().traceId === emit!.spanContext().traceId)!;
  expect(continued.parentSpanContext?.spanId).toBe(emit!.spanContext().spanId);
  expect(continued.attributes).toMatchObject({
    'messaging.consumer.group.name': 'traced',
    'messaging.message.id': 'q/h-1',
  });
  // The handler ran inside it.
  expect(first!.active).toBe(continued.spanContext().spanId);
  // The other entry: handled, without a trace context, in a trace of its own.
  expect(second!.event.data.hypothesisId).toBe('h-2');
  expect(second!.event.traceparent).toBeUndefined();
  const own = processed.find((s) => s !== continued)!;
  expect(own.parentSpanContext).toBeUndefined();
});
