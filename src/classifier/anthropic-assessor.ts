/**
 * The safety classifier's model request: the forced tool call of
 * record_safety_assessment (tool-call.ts), and the SDK client that carries
 * it and the claim-support judge's.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from 'undici';
import { AssessmentSchema, type Assessment } from '../safety/classification/assessment.js';
import { ASSESSMENT_TOOL, SYSTEM_PROMPT } from '../safety/classification/prompt.js';
import { mergeAssessments } from '../safety/classification/windows.js';
import { requestFetch } from './http-transport.js';
import { createToolCaller, type TokenUsage, type ToolCallerOptions } from './tool-call.js';

export { TOKEN_KINDS, parseRetryAfter, toCallError, tokenUsage } from './tool-call.js';
export type { TokenKind, TokenUsage } from './tool-call.js';

export type AssessOutcome = { kind: 'assessment'; assessment: Assessment } | { kind: 'refusal'; text: string };

export interface Assessor {
  readonly model: string;
  /**
   * One request; it ends when the signal the client was built with aborts.
   * `onUsage` gets the tokens of every response that reports them, a refusal
   * or a malformed answer included: they are billed all the same.
   */
  assess(userMessage: string, onUsage?: (usage: TokenUsage) => void): Promise<AssessOutcome>;
}

export type AnthropicAssessorOptions = ToolCallerOptions;

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

export function createAnthropicAssessor(options: AnthropicAssessorOptions): Assessor {
  const caller = createToolCaller(options, {
    system: SYSTEM_PROMPT,
    tool: ASSESSMENT_TOOL,
    schema: AssessmentSchema,
    merge: (calls) => mergeAssessments(calls, 'call'),
  });
  return {
    model: caller.model,
    async assess(userMessage, onUsage) {
      const outcome = await caller.call(userMessage, onUsage);
      return outcome.kind === 'refusal' ? outcome : { kind: 'assessment', assessment: outcome.value };
    },
  };
}
