/**
 * One classifier request through the Anthropic SDK, with the forced tool call.
 * The SDK's own retries are off (maxRetries: 0): retries happen in one layer,
 * retry.ts, so a budget means what it says.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from 'undici';
import { z } from 'zod';
import { AssessmentSchema, type Assessment } from '../safety/classification/assessment.js';
import { ASSESSMENT_TOOL, SYSTEM_PROMPT, TOOL_NAME } from '../safety/classification/prompt.js';
import { mergeAssessments } from '../safety/classification/windows.js';
import { ClassifierCallError } from './errors.js';
import { requestFetch } from './http-transport.js';
import { inSpan, SpanKind, type Span } from '../telemetry/spans.js';

export type AssessOutcome = { kind: 'assessment'; assessment: Assessment } | { kind: 'refusal'; text: string };

/** The kinds of token the Messages API bills, as its `usage` block counts them. */
export const TOKEN_KINDS = ['input', 'output', 'cache_read', 'cache_write'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
/** Tokens of one response: `input` excludes what was read from or written to the prompt cache. */
export type TokenUsage = Record<TokenKind, number>;

export interface Assessor {
  readonly model: string;
  /**
   * One request; it ends when the signal the client was built with aborts.
   * `onUsage` gets the tokens of every response that reports them, a refusal
   * or a malformed answer included: they are billed all the same.
   */
  assess(userMessage: string, onUsage?: (usage: TokenUsage) => void): Promise<AssessOutcome>;
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

export interface AnthropicAssessorOptions {
  client: Anthropic;
  model: string;
  maxTokens: number;
  /** The signal the client was built with: a request that fails after it aborted was aborted. */
  signal?: AbortSignal | undefined;
}

/** The largest answer body the client reads; a larger one fails the request as a connection error. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Builds the SDK client. Only the composition root and the CLI call this.
 *
 * Its requests go through an undici Agent of its own, by undici's request API
 * (http-transport.ts), not fetch: half the CPU per call. When `signal` aborts
 * (shutdown, past its bound), the Agent is destroyed, which ends every request
 * in flight at once. A signal handed to each request instead would cost every
 * request a listener on the shared signal, an AbortController link and a
 * finalizer in the SDK: about a tenth of the CPU of a request answered at once.
 */
export function createAnthropicClient(options: {
  apiKey: string;
  baseURL?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}): Anthropic {
  // An answer is bounded by max_tokens: a body past this bound is not one.
  const agent = new Agent({ maxResponseSize: MAX_RESPONSE_BYTES });
  const { signal } = options;
  if (signal) {
    const end = () => void agent.destroy(new Error('classifier requests aborted')).catch(() => undefined);
    if (signal.aborted) end();
    else signal.addEventListener('abort', end, { once: true });
  }
  const fetch = requestFetch(agent) as unknown as typeof globalThis.fetch;
  return new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    timeout: options.timeoutMs,
    maxRetries: 0,
    fetch,
  });
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
export function toCallError(err: unknown): ClassifierCallError {
  if (err instanceof ClassifierCallError) return err;
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return new ClassifierCallError('timeout', 'classifier request timed out', undefined, { cause: err });
  }
  if (err instanceof Anthropic.APIConnectionError) {
    return new ClassifierCallError('connection_error', `classifier connection failed: ${err.message}`, undefined, {
      cause: err,
    });
  }
  if (err instanceof Anthropic.APIError && typeof err.status === 'number') {
    const status = err.status;
    const retryAfter = parseRetryAfter(err.headers as Headers | undefined);
    const what = `classifier answered HTTP ${status}`;
    if (status === 429) return new ClassifierCallError('rate_limited', what, retryAfter, { cause: err });
    if (status === 529) return new ClassifierCallError('overloaded', what, retryAfter, { cause: err });
    if (status >= 500 || status === 408 || status === 409)
      return new ClassifierCallError('server_error', what, retryAfter, { cause: err });
    if (status === 401 || status === 403) return new ClassifierCallError('auth_error', what, undefined, { cause: err });
    return new ClassifierCallError('bad_request', `${what}: ${err.message}`, undefined, { cause: err });
  }
  return new ClassifierCallError('connection_error', `classifier request failed: ${String(err)}`, undefined, {
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
 * The assessment of one answer, or why it cannot be trusted. The model was
 * told to call the tool exactly once and to stop there (tool_choice forces
 * the call; `stop_reason: "tool_use"` says the answer ended on it). An answer
 * with two calls, or one that stopped otherwise (`max_tokens`: cut short),
 * is not an assessment: it fails as such, carrying the most severe reading
 * of the calls in it that are whole, so the verdict never falls below them.
 */
function readAnswer(answer: Answer): AssessOutcome {
  if (answer.stop_reason === 'refusal') {
    const text = answer.content
      .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
      .join(' ');
    return { kind: 'refusal', text };
  }
  const calls = answer.content.filter((b) => b.type === 'tool_use' && b.name === TOOL_NAME);
  const parsed = calls.map((call) => AssessmentSchema.safeParse(call.input));
  const whole = parsed.flatMap((p) => (p.success ? [p.data] : []));
  const assessment = whole.length > 0 ? mergeAssessments(whole, 'call') : undefined;
  const stop = answer.stop_reason ?? null;
  if (stop !== 'tool_use') {
    throw new ClassifierCallError(
      'unexpected_stop',
      `the answer stopped with stop_reason ${JSON.stringify(stop)}, not "tool_use" ` +
        `(${calls.length} ${TOOL_NAME} call(s), ${whole.length} valid)`,
      undefined,
      { assessment },
    );
  }
  if (calls.length === 0) {
    throw new ClassifierCallError('malformed_output', `no ${TOOL_NAME} call in the response (stop_reason ${stop})`);
  }
  if (calls.length > 1) {
    throw new ClassifierCallError(
      'multiple_assessments',
      `${calls.length} ${TOOL_NAME} calls in one answer (${whole.length} valid); the most severe is kept`,
      undefined,
      { assessment },
    );
  }
  const [only] = parsed as [(typeof parsed)[number]];
  if (!only.success)
    throw new ClassifierCallError('malformed_output', `invalid ${TOOL_NAME} input: ${issues(only.error)}`);
  return { kind: 'assessment', assessment: only.data };
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

export function createAnthropicAssessor(options: AnthropicAssessorOptions): Assessor {
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
    assess(userMessage, onUsage) {
      return inSpan(`chat ${model}`, { kind: SpanKind.CLIENT, attributes }, (span) =>
        call(userMessage, (body, usage) => {
          recordAnswer(span, body, usage);
          if (usage) onUsage?.(usage);
        }),
      );
    },
  };

  async function call(
    userMessage: string,
    answered: (body: unknown, usage: TokenUsage | undefined) => void,
  ): Promise<AssessOutcome> {
    if (signal?.aborted) throw new ClassifierCallError('aborted', 'request aborted');
    let body: unknown;
    try {
      body = await client.messages.create({
        model,
        max_tokens: maxTokens,
        system: SYSTEM_PROMPT,
        tools: [ASSESSMENT_TOOL as Anthropic.Tool],
        tool_choice: { type: 'tool', name: TOOL_NAME },
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
      throw toCallError(err);
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
    return readAnswer(answer.data);
  }
}
