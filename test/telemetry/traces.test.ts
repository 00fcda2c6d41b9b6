/**
 * Traces across processes, as a deployment has them: a publisher
 * (test/support/traced-publisher.ts, the client with the application's own
 * OpenTelemetry set-up and `bullmq-otel`) and `cosci-safety worker`, each a
 * process of its own, both exporting OTLP/HTTP (JSON) to a receiver on
 * loopback, against real Redis, the real Anthropic SDK (a fake Messages API
 * on loopback) and a cited page on a loopback web server. Each job's trace
 * runs from the publisher's span through the worker's job span to the model
 * call, the page fetch and parse, the verdict write and the events, and the
 * event in the stream carries the trace context of its span. Unconfigured,
 * or with OTEL_SDK_DISABLED, nothing reaches the receiver.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, toolUse, usage, type FakeAnthropic } from '../support/fake-anthropic.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { until } from '../support/poll.js';
import {
  killWorker,
  namesOf,
  spawnWorker,
  streamEvents,
  writeWorkerConfig,
  type WorkerProcess,
  type WorkerSettings,
} from '../support/processes.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const run = promisify(execFile);
const MODEL = 'claude-haiku-4-5-20251001';
const KIND = { internal: 1, client: 3, producer: 4, consumer: 5 };

let fake: FakeAnthropic;
let pages: PageServer;
const redis = testRedis();
const ids: string[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // Known token counts, to find on the model call's span.
  fake = await startFakeAnthropic(() =>
    toolUse(
      { categories: ['none'], confidence: 0.97, rationale: 'ordinary science' },
      MODEL,
      usage(120, 30, { read: 5, write: 2 }),
    ),
  );
  pages = await startPageServer();
  pages.page('/paper', '<html><body><p>We show that kinase X phosphorylates Y in vivo.</p></body></html>');
});
afterAll(async () => {
  for (const w of workers) await killWorker(w);
  await fake?.close();
  await pages?.close();
  await deleteKeys(redis, ...ids);
  redis.disconnect();
});

/** A worker of the hypothesis and review queues, with names of its own and `env`. */
async function worker(env: Record<string, string>): Promise<{ w: WorkerProcess; id: string }> {
  const id = uniqueName('otel');
  ids.push(id);
  const settings: WorkerSettings = {
    redisUrl: REDIS_URL,
    id,
    modelUrl: fake.url,
    worker: { queues: ['hypothesis.saved', 'review.recorded'], concurrency: 2, shutdown_timeout_ms: 5000 },
    citations: { allow_private_hosts: [`localhost:${pages.port}`] },
    env,
  };
  const w = await spawnWorker(writeWorkerConfig(settings), settings);
  workers.push(w);
  return { w, id };
}

interface Published {
  appSpan: { traceId: string; spanId: string };
  hypothesis: { jobId: string };
  review: { jobId: string };
}

async function publish(id: string, mode: 'traced' | 'plain', env: Record<string, string>): Promise<Published> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'test/support/traced-publisher.ts', REDIS_URL, id, `${pages.base}/paper`, mode],
    { env: { ...clean, ...env }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as Published;
}

/** The stream's events once both jobs have announced theirs. */
async function eventsOf(id: string) {
  const { stream } = namesOf(id);
  let events: Awaited<ReturnType<typeof streamEvents>> = [];
  await until(
    () => `hypothesis_assessed and review_verified in ${stream} (have ${events.map((e) => e.type).join(', ')})`,
    async () => {
      events = await streamEvents(redis, stream);
      const types = events.map((e) => e.type);
      return types.includes('hypothesis_assessed') && types.includes('review_verified');
    },
    { timeoutMs: 60_000 },
  );
  return events;
}

describe('a traced publisher and a traced worker', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => receiver?.close());

  it('make one trace per job, from the publisher through the processor to the events', async () => {
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Exported soon after they end, rather than every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const { w, id } = await worker({ ...otel, OTEL_SERVICE_NAME: 'safety-worker' });
    const published = await publish(id, 'traced', otel);
    const events = await eventsOf(id);
    const spans = receiver.spans;
    const named = (name: string, where: (s: ReceivedSpan) => boolean = () => true) => {
      const found = spans.filter((s) => s.name === name && where(s));
      return found;
    };
    await until(
      () => `the spans of both jobs at the receiver (have ${[...new Set(spans.map((s) => s.name))].join(', ')})`,
      () =>
        named('emit hypothesis_assessed').length > 0 &&
        named('emit review_verified').length > 0 &&
        named('add hypothesis.saved.hypothesis.saved').length > 0 &&
        named('process review.recorded').length > 0,
      { timeoutMs: 30_000 },
    );
    const one = (name: string, where?: (s: ReceivedSpan) => boolean) => {
      const found = named(name, where);
      expect(
        found.map((s) => s.name),
        name,
      ).toEqual([name]);
      return found[0]!;
    };
    const childOf = (parent: ReceivedSpan) => (s: ReceivedSpan) =>
      s.traceId === parent.traceId && s.parentSpanId === parent.spanId;

    // The hypothesis: the application's span, then the client's add, in the publisher's process.
    const add = one('add hypothesis.saved.hypothesis.saved');
    expect(add.kind).toBe(KIND.producer);
    expect(add.resource['service.name']).toBe('agent-app');
    expect(add.traceId).toBe(published.appSpan.traceId);
    expect(add.parentSpanId).toBe(published.appSpan.spanId);
    // The job's span in the worker's process continues it.
    const job = one('process hypothesis.saved', childOf(add));
    expect(job.kind).toBe(KIND.consumer);
    expect(job.resource['service.name']).toBe('safety-worker');
    expect(job.resource['process.pid']).toBe(w.pid);
    expect(job.attributes['bullmq.job.id']).toBe(published.hypothesis.jobId);
    // The model call, by the GenAI conventions, with the tokens the API reported.
    const chat = one(`chat ${MODEL}`, (s) => s.traceId === job.traceId);
    expect(chat.kind).toBe(KIND.client);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': MODEL,
      'gen_ai.response.model': MODEL,
      'gen_ai.usage.input_tokens': 127,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 5,
      'gen_ai.usage.cache_creation.input_tokens': 2,
    });
    expect(descends(spans, chat, job)).toBe(true);
    // The verdict write, and its event inside it.
    const write = one('write verdict', childOf(job));
    expect(write.attributes).toMatchObject({ 'cosci.subject': 'hypothesis', 'cosci.verdict.outcome': 'created' });
    const emit = one('emit hypothesis_assessed', childOf(write));
    expect(emit.kind).toBe(KIND.producer);
    expect(emit.attributes['cosci.event.appended']).toBe(true);
    // The entry carries the event span's context: a consumer continues from there.
    const assessed = events.find((e) => e.type === 'hypothesis_assessed')!;
    expect(assessed.traceparent).toBe(`00-${emit.traceId}-${emit.spanId}-01`);

    // The review: a trace of its own, started by the client's add.
    const reviewAdd = one('add review.recorded.review.recorded');
    expect(reviewAdd.parentSpanId).toBe('');
    expect(reviewAdd.traceId).not.toBe(add.traceId);
    const reviewJob = one('process review.recorded', childOf(reviewAdd));
    const fetch = one('GET', (s) => s.traceId === reviewJob.traceId);
    expect(fetch.kind).toBe(KIND.client);
    expect(fetch.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': 'localhost',
      'server.port': pages.port,
      'url.full': `${pages.base}/paper`,
      'http.response.status_code': 200,
    });
    expect(descends(spans, fetch, reviewJob)).toBe(true);
    const parse = one('parse document', (s) => s.traceId === reviewJob.traceId);
    expect(parse.attributes['cosci.document.media_type']).toBe('text/html');
    expect(descends(spans, parse, reviewJob)).toBe(true);
    const verified = one('emit review_verified', (s) => s.traceId === reviewJob.traceId);
    expect(descends(spans, verified, reviewJob)).toBe(true);
    const verifiedEvent = events.find((e) => e.type === 'review_verified')!;
    expect(verifiedEvent.traceparent).toBe(`00-${verified.traceId}-${verified.spanId}-01`);

    // No span of these traces was recorded as failed: the jobs went well.
    expect(spans.filter((s) => s.status === 2 && [add.traceId, reviewAdd.traceId].includes(s.traceId))).toEqual([]);
  });
});

/** True when `span` is `ancestor` or below it, following parent ids within its trace. */
function descends(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

describe.each<{ what: string; env: Record<string, string> }>([
  { what: 'with no OTEL variable set', env: {} },
  { what: 'with OTEL_SDK_DISABLED=true beside an endpoint', env: { OTEL_SDK_DISABLED: 'true' } },
])('a worker $what', ({ env }) => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => receiver?.close());

  it('exports nothing, and its events carry no trace context', async () => {
    const endpoint: Record<string, string> =
      'OTEL_SDK_DISABLED' in env ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {};
    const { w, id } = await worker({
      ...env,
      ...endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    // The publisher without OpenTelemetry: a job as it always was.
    await publish(id, 'plain', {});
    const events = await eventsOf(id);
    expect(events.filter((e) => e.traceparent !== undefined || e.tracestate !== undefined)).toEqual([]);
    // Its spans would have gone out within 100 ms of the jobs; ten times that and more has passed by the stop.
    await new Promise((r) => setTimeout(r, 1000));
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(receiver.requests).toEqual([]);
  });
});
