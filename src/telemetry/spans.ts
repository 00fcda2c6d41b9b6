/**
 * The spans the adapters record: a model call, a page fetch, a document
 * parse, a verdict write, an event. Through `@opentelemetry/api` alone: with
 * no SDK registered (tracing not configured, src/telemetry/tracing.ts), the
 * API hands out non-recording spans, so a span costs a few allocations and
 * exports nothing. Whoever registered a tracer provider gets them: the
 * worker's own (tracing.ts), or an application's that runs these parts in
 * its own process.
 *
 * Attribute names follow the OpenTelemetry semantic conventions where one
 * fits (https://opentelemetry.io/docs/specs/semconv/); the service's own are
 * under `cosci.`. Never a text, an excerpt or a URL's credentials: a trace
 * backend is read by more people than the review page.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/** The instrumentation scope of the service's own spans (BullMQ's are `bullmq`'s). */
export const TRACER_NAME = 'cosci-safety';

export { SpanKind, type Attributes, type Span };

/**
 * Runs `fn` inside a span named `name`, a child of the active one, which
 * ends when `fn` settles. What `fn` throws marks the span as an error, with
 * `error.type` set to the error's `code` (CosciError's) or its name, and is
 * thrown on.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, options, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Marks `span` as failed by `err`: status ERROR, `error.type`, and the exception as an event. */
export function failed(span: Span, err: unknown): void {
  const code = (err as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' ? code : err instanceof Error ? err.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  if (err instanceof Error) span.recordException(err);
}

/**
 * An outcome that is not an exception (a page that could not be had, a
 * document that could not be read) still fails its span: `error.type` names
 * the reason, as the semantic conventions ask for an HTTP client span.
 */
export function failedAs(span: Span, reason: string): void {
  span.setAttribute('error.type', reason);
  span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
}

/**
 * The W3C trace context of `span` (`traceparent`, and `tracestate` when
 * there is one), by the propagator registered with the API: what an event
 * carries so that a consumer continues the trace. Empty when tracing is off
 * (no propagator, or a span that is not sampled and has no valid context).
 */
export function traceContextOf(span: Span): { traceparent?: string; tracestate?: string } {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  const { traceparent, tracestate } = carrier;
  return {
    ...(traceparent ? { traceparent } : {}),
    ...(traceparent && tracestate ? { tracestate } : {}),
  };
}

/** Starts a span, a child of the active one, that the caller ends (see inSpan for one that ends itself). */
export function startSpan(name: string, options: { kind?: SpanKind; attributes?: Attributes }): Span {
  return trace.getTracer(TRACER_NAME).startSpan(name, options);
}
