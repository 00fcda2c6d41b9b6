/**
 * Tracing set-up: the OpenTelemetry SDK for the worker process
 * (`cosci-safety worker`), configured by the standard variables
 * of the OpenTelemetry specification
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/)
 * and by nothing else. Off unless an OTLP endpoint is set: a deployment that
 * sets none pays for nothing, the SDK not even being loaded.
 *
 * The parts are the ecosystem's: the SDK's tracer provider with a batching
 * span processor, the OTLP/HTTP exporter (protobuf, the specification's
 * default, or JSON), W3C Trace Context propagation, and `bullmq-otel` for
 * BullMQ's spans (its queues and workers take it as their `telemetry`
 * option). The exporters, the sampler and the batch processor read their own
 * variables (OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*, ...);
 * this module decides only whether to start, and with which exporter.
 */
import type { Telemetry } from 'bullmq';
import type { Logger } from 'pino';
import type { Env } from '../config/load.js';
import { ConfigError } from '../errors.js';

/** The values of OTEL_EXPORTER_OTLP_PROTOCOL that an OTLP/HTTP exporter here speaks. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** What the environment asks for: no tracing (and why), or an exporter. */
export type TracingSettings =
  { enabled: false; why: string } | { enabled: true; protocol: OtlpProtocol; endpoint: string; serviceName: string };

/** A variable's value, '' and blanks taken as unset, as the specification says of empty values. */
function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/**
 * Reads the variables that decide whether the service traces. A value that
 * cannot be honoured stops start-up, naming the variable: an operator who
 * asked for traces and silently gets none would look for them in vain.
 */
export function tracingSettings(env: Env, defaultServiceName = 'cosci-safety'): TracingSettings {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { enabled: false, why: 'OTEL_SDK_DISABLED' };
  const exporters = value(env, 'OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((e) => e.trim().toLowerCase());
  if (exporters?.length === 1 && exporters[0] === 'none') return { enabled: false, why: 'OTEL_TRACES_EXPORTER=none' };
  if (exporters && !exporters.every((e) => e === 'otlp'))
    throw new ConfigError(
      `OTEL_TRACES_EXPORTER: only otlp (or none) is supported, got '${value(env, 'OTEL_TRACES_EXPORTER')}'`,
    );
  const variable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = value(env, variable);
  if (endpoint === undefined) return { enabled: false, why: 'no OTLP endpoint' };
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`${variable}: expected an http:// or https:// URL`);
  }
  // Never echo the URL: credentials in it would land in the logs.
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${variable}: expected an http:// or https:// URL, got a ${url.protocol} URL`);
  const protocolVariable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = value(env, protocolVariable) ?? 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(
      `${protocolVariable}: expected ${OTLP_PROTOCOLS.join(' or ')}, got '${protocol}'` +
        (protocol === 'grpc' ? ' (OTLP over gRPC is not supported: use the OTLP/HTTP port, 4318)' : ''),
    );
  }
  return {
    enabled: true,
    protocol: protocol as OtlpProtocol,
    endpoint: `${url.protocol}//${url.host}`,
    serviceName: value(env, 'OTEL_SERVICE_NAME') ?? defaultServiceName,
  };
}

export interface Tracing {
  /** For BullMQ's queues and workers (their `telemetry` option). */
  readonly telemetry: Telemetry;
  readonly settings: Extract<TracingSettings, { enabled: true }>;
  /** Exports the spans still buffered, then stops; later calls get the same promise. */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing when the environment asks for it (tracingSettings), and
 * registers the tracer provider, the context manager and the W3C propagator
 * with `@opentelemetry/api` for the whole process; undefined when it does
 * not. The SDK's complaints (an export that failed) go to `logger`, at warn
 * level and above.
 */
export async function startTracing(
  env: Env,
  options: { logger: Logger; version: string; defaultServiceName?: string },
): Promise<Tracing | undefined> {
  const settings = tracingSettings(env, options.defaultServiceName);
  if (!settings.enabled) return undefined;
  // Loaded only now: a service that does not trace never loads the SDK.
  const [api, { NodeTracerProvider, BatchSpanProcessor }, resources, { BullMQOtel }, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('bullmq-otel'),
    settings.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const log = options.logger.child({ component: 'tracing' });
  api.diag.setLogger(
    {
      error: (message, ...args) => log.error({ args: args.map(String) }, message),
      warn: (message, ...args) => log.warn({ args: args.map(String) }, message),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    api.DiagLogLevel.WARN,
  );
  // Ours first, then what the environment says (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES), which wins.
  const resource = resources
    .resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': options.version })
    .merge(
      resources.detectResources({
        detectors: [resources.envDetector, resources.hostDetector, resources.processDetector],
      }),
    );
  // The exporter reads the endpoint, headers, timeout and compression from the environment itself.
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new exporter.OTLPTraceExporter())],
  });
  provider.register();
  let stopping: Promise<void> | undefined;
  return {
    telemetry: new BullMQOtel({ tracerName: 'bullmq' }),
    settings,
    shutdown() {
      stopping ??= provider.shutdown().catch((err: unknown) => {
        // Spans that could not be exported are lost; the shutdown goes on.
        log.warn({ err: String(err) }, 'could not export the last spans');
      });
      return stopping;
    },
  };
}
