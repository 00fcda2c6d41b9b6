/**
 * One span per event appended to the stream, `emit <type>` (a PRODUCER
 * span, as the messaging conventions have it for a message sent), a child of
 * the active span: the job's, or the verdict write's when a store appends
 * the events in its own script. The entry carries the span's W3C trace
 * context in its `traceparent` and `tracestate` fields, so that a consumer
 * continues the trace from the event (docs/tracing.md#continuing-from-an-event).
 * An event whose id was seen before (a job run again), or that its script
 * did not announce, is not appended: its span says so (`cosci.event.appended`
 * false), and an entry already in the stream keeps the trace of the run that
 * appended it.
 */
import { SpanKind, startSpan, traceContextOf, failed, type Span } from '../telemetry/spans.js';

/** An entry's trace context fields as a script's arguments take them: '' for none. */
export interface EventTrace {
  traceparent: string;
  tracestate: string;
}

/**
 * Runs `append`, which appends `events` to `stream` with the trace context
 * it is given for each (in the same order), inside a span per event.
 * `appended(result)` says, for each event, whether it was appended (false:
 * a duplicate, or an event the script did not announce).
 */
export async function withEventSpans<R>(
  stream: string,
  events: ReadonlyArray<{ type: string; eventId: string }>,
  append: (traces: EventTrace[]) => Promise<R>,
  appended: (result: R) => boolean[],
): Promise<R> {
  const spans: Span[] = events.map(({ type, eventId }) =>
    startSpan(`emit ${type}`, {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.operation.type': 'send',
        'messaging.destination.name': stream,
        'messaging.message.id': eventId,
        'cosci.event.type': type,
      },
    }),
  );
  try {
    const result = await append(
      spans.map((span) => {
        const { traceparent = '', tracestate = '' } = traceContextOf(span);
        return { traceparent, tracestate };
      }),
    );
    const which = appended(result);
    spans.forEach((span, i) => span.setAttribute('cosci.event.appended', which[i] === true));
    return result;
  } catch (err) {
    for (const span of spans) failed(span, err);
    throw err;
  } finally {
    for (const span of spans) span.end();
  }
}
