/**
 * One model request with a forced tool call, through the Anthropic SDK: the
 * safety classifier's (record_safety_assessment) and the claim-support
 * judge's (record_claim_support). The SDK's own retries are off
 * (maxRetries: 0): retries happen in one layer, retry.ts, so a budget means
 * what it says. What the answer must be before it is read is the same for
 * every tool: a message that ends on exactly one call of the tool asked for,
 * whose input the tool's schema accepts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { ClassifierCallError } from './errors.js';
import { inSpan, SpanKind, type Span } from '../telemetry/spans.js';

/** The kinds of token the Messages API bills, as its `usage` block counts them. */
export const TOKEN_KINDS = ['input', 'output', 'cache_read', 'cache_write'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
/** Tokens of one response: `input` excludes what was read from or written to the prompt cache. */
export type TokenUsage = Record<TokenKind, number>;

/** What one request gave: the tool's input, or a refusal. */
export type ToolOutcome<T> = { kind: 'answer'; value: T } | { kind: 'refusal'; text: string };

/** The tool a request forces, and how its input is read. */
export interface ForcedTool<T> {
  system: string;
  tool: { name: string; description: string; input_schema: { type: 'object'; [key: string]: unknown } };
  /** Validates the call's input: an input it refuses is `malformed_output`, never a pass. */
  schema: z.ZodType<T>;
  /**
   * The most severe reading of several whole calls, carried by the error of
   * an answer that cannot be trusted (two calls, or one it did not end on),
   * so a verdict never falls below them. Without it, such an answer carries
   * nothing.
   */
  merge?: (values: T[]) => T;
  /**
   * Who calls, in the messages of failures (`claim-support judge answered HTTP 529`).
   * @defaultValue 'classifier'
   */
  caller?: string;
}

export interface ToolCaller<T> {
  readonly model: string;
  /**
   * One request; it ends when the signal the client was built with aborts.
   * `onUsage` gets the tokens of every response that reports them, a refusal
   * or a malformed answer included: they are billed all the same.
   */
  call(userMessage: string, onUsage?: (usage: TokenUsage) => void): Promise<ToolOutcome<T>>;
}

export interface ToolCallerOptions {
  client: Anthropic;
  model: string;
  maxTokens: number;
  /** The signal the client was built with: a request that fails after it aborted was aborted. */
  signal?: AbortSignal | undefined;
}

/** The usage block of a response (absent or partial: 0 for what it lacks). */
export function tokenUsage(usage: Partial<Anthropic.Usage> | null | undefined): TokenUsage {
  const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return {
    input: n(usage?.input_tokens),
    output: n(usage?.output_tokens),
    cache_read: n(usage?.cache_read_input_tokens),
    cache_write: n(usage?.cache_creation_input_tokens),
  };
}

/** retry-after is seconds or an HTTP date; retry-after-ms, when sent, is more precise. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps an SDK error to a failure kind. An abort is told by the client's
 * signal (see assess), as requests carry none of their own.
 */
export function toCallError(err: unknown, who = 'classifier'): ClassifierCallError {
  if (err instanceof ClassifierCallError) return err;
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return new ClassifierCallError('timeout', `${who} request timed out`, undefined, { cause: err });
  }
  if (err instanceof Anthropic.APIConnectionError) {
    return new ClassifierCallError('connection_error', `${who} connection failed: ${err.message}`, undefined, {
      cause: err,
    });
  }
  if (err instanceof Anthropic.APIError && typeof err.status === 'number') {
    const status = err.status;
    const retryAfter = parseRetryAfter(err.headers as Headers | undefined);
    const what = `${who} answered HTTP ${status}`;
    if (status === 429) return new ClassifierCallError('rate_limited', what, retryAfter, { cause: err });
    if (status === 529) return new ClassifierCallError('overloaded', what, retryAfter, { cause: err });
    if (status >= 500 || status === 408 || status === 409)
      return new ClassifierCallError('server_error', what, retryAfter, { cause: err });
    if (status === 401 || status === 403) return new ClassifierCallError('auth_error', what, undefined, { cause: err });
    return new ClassifierCallError('bad_request', `${what}: ${err.message}`, undefined, { cause: err });
  }
  return new ClassifierCallError('connection_error', `${who} request failed: ${String(err)}`, undefined, {
    cause: err,
  });
}

/**
 * The least an answer must be before anything in it is read: a message, with
 * its content blocks and stop reason. The SDK hands over whatever a 200
 * carried (an HTML page, an event stream, `{}`) without looking at it.
 */
const AnswerSchema = z.object({
  type: z.literal('message'),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullish(),
});
type Answer = z.infer<typeof AnswerSchema>;

/** What a body that is not a message was, in a few words: its content is never echoed. */
function notAMessage(body: unknown, problems: string): string {
  if (typeof body === 'string') return `the answer is not a message: ${body.length} characters of text, not JSON`;
  if (body === null || typeof body !== 'object') return `the answer is not a message: ${String(body)}`;
  return `the answer is not a message: ${problems}`;
}

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');

/**
 * The tool's input of one answer, or why it cannot be trusted. The model was
 * told to call the tool exactly once and to stop there (tool_choice forces
 * the call; `stop_reason: "tool_use"` says the answer ended on it). An answer
 * with two calls, or one that stopped otherwise (`max_tokens`: cut short),
 * is not an answer: it fails as such, carrying the most severe reading of
 * the calls in it that are whole (ForcedTool.merge), when the tool has one.
 */
function readAnswer<T>(answer: Answer, forced: ForcedTool<T>): ToolOutcome<T> {
  const name = forced.tool.name;
  if (answer.stop_reason === 'refusal') {
    const text = answer.content
      .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
      .join(' ');
    return { kind: 'refusal', text };
  }
  const calls = answer.content.filter((b) => b.type === 'tool_use' && b.name === name);
  const parsed = calls.map((call) => forced.schema.safeParse(call.input));
  const whole = parsed.flatMap((p) => (p.success ? [p.data] : []));
  const assessment = whole.length > 0 && forced.merge ? forced.merge(whole) : undefined;
  const stop = answer.stop_reason ?? null;
  if (stop !== 'tool_use') {
    throw new ClassifierCallError<T>(
      'unexpected_stop',
      `the answer stopped with stop_reason ${JSON.stringify(stop)}, not "tool_use" ` +
        `(${calls.length} ${name} call(s), ${whole.length} valid)`,
      undefined,
      { assessment },
    );
  }
  if (calls.length === 0) {
    throw new ClassifierCallError('malformed_output', `no ${name} call in the response (stop_reason ${stop})`);
  }
  if (calls.length > 1) {
    throw new ClassifierCallError<T>(
      'multiple_assessments',
      `${calls.length} ${name} calls in one answer (${whole.length} valid)` +
        (forced.merge ? '; the most severe is kept' : ''),
      undefined,
      { assessment },
    );
  }
  const [only] = parsed as [(typeof parsed)[number]];
  if (!only.success) throw new ClassifierCallError('malformed_output', `invalid ${name} input: ${issues(only.error)}`);
  return { kind: 'answer', value: only.data };
}

/**
 * What the GenAI semantic conventions record of an answer
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): its
 * id, model, stop reason and tokens. `gen_ai.usage.input_tokens` counts
 * every input token, those read from and written to the prompt cache
 * included, as the conventions ask of Anthropic's usage block, whose
 * `input_tokens` leaves them out.
 */
function recordAnswer(span: Span, body: unknown, usage: TokenUsage | undefined): void {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof answer.id === 'string') span.setAttribute('gen_ai.response.id', answer.id);
  if (typeof answer.model === 'string') span.setAttribute('gen_ai.response.model', answer.model);
  if (typeof answer.stop_reason === 'string') span.setAttribute('gen_ai.response.finish_reasons', [answer.stop_reason]);
  if (usage) {
    span.setAttributes({
      'gen_ai.usage.input_tokens': usage.input + usage.cache_read + usage.cache_write,
      'gen_ai.usage.output_tokens': usage.output,
      'gen_ai.usage.cache_read.input_tokens': usage.cache_read,
      'gen_ai.usage.cache_creation.input_tokens': usage.cache_write,
    });
  }
}

export function createToolCaller<T>(options: ToolCallerOptions, forced: ForcedTool<T>): ToolCaller<T> {
  const { client, model, maxTokens, signal } = options;
  // The span of one model call, `chat <model>`, as the GenAI conventions name it; the SDK's own span
  // of the request (when its tracing is on) is its child. Neither records the prompt or the answer.
  const attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'anthropic',
    // The attribute's name before gen_ai.provider.name, which backends still read.
    'gen_ai.system': 'anthropic',
    'gen_ai.request.model': model,
    'gen_ai.request.max_tokens': maxTokens,
  };
  return {
    model,
    call(userMessage, onUsage) {
      return inSpan(`chat ${model}`, { kind: SpanKind.CLIENT, attributes }, (span) =>
        request(userMessage, (body, usage) => {
          recordAnswer(span, body, usage);
          if (usage) onUsage?.(usage);
        }),
      );
    },
  };

  async function request(
    userMessage: string,
    answered: (body: unknown, usage: TokenUsage | undefined) => void,
  ): Promise<ToolOutcome<T>> {
    if (signal?.aborted) throw new ClassifierCallError('aborted', 'request aborted');
    let body: unknown;
    try {
      body = await client.messages.create({
        model,
        max_tokens: maxTokens,
        system: forced.system,
        tools: [forced.tool as Anthropic.Tool],
        tool_choice: { type: 'tool', name: forced.tool.name },
        messages: [{ role: 'user', content: userMessage }],
      });
    } catch (err) {
      // The client's Agent was destroyed under this request: that is the abort.
      if (signal?.aborted) throw new ClassifierCallError('aborted', 'request aborted', undefined, { cause: err });
      // A 200 labelled JSON whose body does not parse: the SDK's JSON.parse threw.
      if (err instanceof SyntaxError) {
        throw new ClassifierCallError('invalid_response', `the answer is not valid JSON: ${err.message}`, undefined, {
          cause: err,
        });
      }
      throw toCallError(err, forced.caller);
    }
    // Billed whatever the rest of it is, when it says.
    answered(
      body,
      typeof body === 'object' && body !== null && 'usage' in body
        ? tokenUsage(body.usage as Partial<Anthropic.Usage> | null)
        : undefined,
    );
    const answer = AnswerSchema.safeParse(body);
    if (!answer.success) throw new ClassifierCallError('invalid_response', notAMessage(body, issues(answer.error)));
    return readAnswer(answer.data, forced);
  }
}
