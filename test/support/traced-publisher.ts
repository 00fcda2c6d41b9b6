/**
 * A publisher in a process of its own, as an application that already runs
 * OpenTelemetry publishes: its own SDK set-up (exporting by the OTEL_*
 * variables it is given), `bullmq-otel` handed to the client's Publisher,
 * and a span of its own around one of its publishes. Run by
 * test/telemetry/traces.test.ts:
 *
 *   node --import tsx test/support/traced-publisher.ts <redis url> <id> <cited url> traced|plain
 *
 * `plain` publishes the same jobs with no OpenTelemetry at all. Prints, as
 * JSON, the ids of the jobs and, traced, the application's span.
 */
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { BullMQOtel } from 'bullmq-otel';
import { Publisher } from '../../src/client/index.js';
import { namesOf } from './processes.js';

const [redisUrl, id, citedUrl, mode] = process.argv.slice(2) as [string, string, string, string];
const { prefix, keyPrefix } = namesOf(id);
const traced = mode === 'traced';

const provider = traced
  ? new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'agent-app' }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    })
  : undefined;
provider?.register();

const publisher = new Publisher({
  connection: redisUrl,
  prefix,
  keyPrefix,
  ...(traced ? { telemetry: new BullMQOtel() } : {}),
});
const out: Record<string, unknown> = {};
// The application's own span: the hypothesis's job continues its trace.
await trace.getTracer('agent-app').startActiveSpan('agent step', async (span) => {
  out.appSpan = { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
  out.hypothesis = await publisher.publishHypothesisSaved({
    hypothesisId: 'h-1',
    text: 'Kinase X phosphorylates Y in yeast.',
    revision: 1,
  });
  span.end();
});
// Outside any span: the review's job starts a trace of its own.
out.review = await publisher.publishReviewRecorded({
  reviewId: 'r-1',
  hypothesisId: 'h-1',
  revision: 1,
  evidence: [{ claim: 'X phosphorylates Y', url: citedUrl, excerpt: 'kinase X phosphorylates Y' }],
});
await publisher.close();
await provider?.shutdown();
console.log(JSON.stringify(out));
