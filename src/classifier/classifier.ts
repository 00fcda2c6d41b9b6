/**
 * The classification service: windows, cache, retries, and the policy, giving
 * a verdict for any text. Never silently safe: with no key, with the
 * classifier disabled, after the retries, or for text past the window bound,
 * the verdict is degraded with a reason, and its action comes from
 * `classifier_on_error` (fail closed by default).
 */
import { hash } from 'node:crypto';
import type { QuotingReport } from '../safety/quoting/index.js';
import type { Assessment } from '../safety/classification/assessment.js';
import { flaggedCategories } from '../safety/classification/assessment.js';
import { decideAction, type ClassifierPolicy } from '../safety/classification/policy.js';
import { buildUserMessage, PROMPT_VERSION } from '../safety/classification/prompt.js';
import { mostSevere, type DegradedReason, type Verdict } from '../safety/classification/verdict.js';
import { mergeAssessments, splitWindows } from '../safety/classification/windows.js';
import type { AssessOutcome, Assessor, TokenUsage } from './anthropic-assessor.js';
import { cacheKey, type AssessmentCache, type CacheWrite } from './assessment-cache.js';
import { ClassifierCallError } from './errors.js';
import { timedAttempt, withRetry, type RetryOptions } from './retry.js';

/** Where the service reports what happened; the metrics adapter implements it. */
export interface ClassifierObserver {
  request(outcome: string, seconds: number): void;
  cache(result: 'hit' | 'miss'): void;
  degraded(reason: DegradedReason): void;
  retry?(error: ClassifierCallError, attempt: number, delayMs: number): void;
  /** What the quoting layer neutralised in a window sent to the model. */
  neutralised?(report: QuotingReport): void;
  /** The tokens of a model response, and who asked for it (ClassifyCallOptions.source). */
  tokens?(usage: TokenUsage, source: string | undefined): void;
}

export interface ClassifierOptions {
  enabled: boolean;
  /** Undefined when there is no API key. */
  assessor: Assessor | undefined;
  model: string;
  cache?: AssessmentCache | undefined;
  policy: ClassifierPolicy;
  windowChars: number;
  windowOverlapChars: number;
  maxWindows: number;
  windowConcurrency: number;
  retry: Omit<RetryOptions, 'signal' | 'onRetry'>;
  observer?: ClassifierObserver | undefined;
}

export interface ClassifyCallOptions {
  signal?: AbortSignal | undefined;
  /** Who asks, for the token counts: the queue whose job it is (undefined: a one-off). */
  source?: string | undefined;
  /**
   * When given, new cache entries are collected here instead of written: the
   * caller writes them in its own round trip (the hypothesis processor, with
   * the verdict). Written or not, they only spare a later model call.
   */
  cacheWrites?: CacheWrite[] | undefined;
  /**
   * The cached assessments of the text's windows as the caller read them
   * (at `lookup.windowKeys`, in order; null where there was none), so they
   * are not read again, nor the text split and hashed again.
   */
  prefetched?: { lookup: VerdictCacheLookup; values: ReadonlyArray<string | null> } | undefined;
}

/**
 * Where a whole text's verdict is cached: a caller that stores verdicts can
 * look it up and store it in one script, with no classification at all. The
 * key names the model, prompt version, label, windowing and policy, so a
 * change of any of them misses. A caller writes a verdict there only when it
 * is not degraded (failures are never cached), with the TTL of the cache.
 */
export interface VerdictCacheLookup {
  /** The Redis key of the text's verdict under the current settings. */
  key: string;
  /** The Redis keys of the text's window assessments, in order: what to read when the verdict is not there. */
  windowKeys: string[];
  ttlSeconds: number;
  /** Reports a verdict answered from this cache: a cache hit for each window. */
  hit(): void;
}

export interface Classifier {
  readonly model: string;
  classify(text: string, label: string, options?: ClassifyCallOptions): Promise<Verdict>;
  /** Undefined when a verdict would not be cached: no cache, no key, or the classifier disabled. */
  verdictCache(text: string, label: string): VerdictCacheLookup | undefined;
}

type WindowResult =
  | { ok: true; outcome: AssessOutcome; cached: boolean }
  /** `assessment`: what an untrusted answer carried, which the verdict's action never falls below. */
  | { ok: false; reason: DegradedReason; message: string; assessment?: Assessment | undefined };

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: unknown;
  const run = async () => {
    while (next < items.length && failure === undefined) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  if (failure !== undefined) throw failure;
  return results;
}

/** The classifier with every call counted under `source` (a queue) in the token counts. */
export function attributedTo(classifier: Classifier, source: string): Classifier {
  return {
    model: classifier.model,
    verdictCache: (text, label) => classifier.verdictCache(text, label),
    classify: (text, label, call = {}) => classifier.classify(text, label, { ...call, source }),
  };
}

export function createClassifier(options: ClassifierOptions): Classifier {
  const { policy, observer } = options;
  const model = options.assessor?.model ?? options.model;

  const base = { model, promptVersion: PROMPT_VERSION, refusal: false, cached: false };

  function degraded(reason: DegradedReason, rationale: string, windows = 0): Verdict {
    observer?.degraded(reason);
    const allow = policy.onError === 'allow';
    return {
      ...base,
      action: allow ? 'allow' : 'quarantine',
      categories: allow ? ['none'] : [],
      confidence: 0,
      rationale,
      degraded: true,
      reason,
      windows,
      windowed: windows > 1,
    };
  }

  async function assessWindow(
    assessor: Assessor,
    text: string,
    label: string,
    index: number,
    count: number,
    key: string,
    call: ClassifyCallOptions,
    prefetched: string | null | undefined,
    pending: Array<[string, AssessOutcome]> | undefined,
  ): Promise<WindowResult> {
    const hit = prefetched !== undefined ? options.cache?.parse(prefetched) : await options.cache?.get(key);
    if (hit) {
      observer?.cache('hit');
      return { ok: true, outcome: hit, cached: true };
    }
    if (options.cache) observer?.cache('miss');
    const { content: message, report } = buildUserMessage(text, label, { index, count });
    if (report.neutralised) observer?.neutralised?.(report);
    const onUsage = observer?.tokens && ((usage: TokenUsage) => observer.tokens?.(usage, call.source));
    try {
      const outcome = await withRetry(
        () => timedAttempt(() => assessor.assess(message, onUsage), observer?.request.bind(observer)),
        {
          ...options.retry,
          signal: call.signal,
          ...(observer?.retry ? { onRetry: observer.retry } : {}),
        },
      );
      if (pending) pending.push([key, outcome]);
      else await options.cache?.set(key, outcome);
      return { ok: true, outcome, cached: false };
    } catch (err) {
      if (err instanceof ClassifierCallError) {
        if (err.kind === 'aborted') throw err;
        return { ok: false, reason: err.degradedReason, message: err.message, assessment: err.assessment };
      }
      throw err;
    }
  }

  const windowsOf = (text: string) =>
    splitWindows(text, options.windowChars, options.windowOverlapChars, options.maxWindows);
  const windowKey = (label: string, window: string, index: number, count: number) =>
    cacheKey({ model, promptVersion: PROMPT_VERSION, label, window: `${index}/${count}`, text: window });
  /** What verdictCache worked out for a text, so classify given its lookup does not do it again. */
  const split = new WeakMap<
    VerdictCacheLookup,
    { text: string; label: string; windows: string[]; needed: number; keys: string[] }
  >();
  // The settings a cached verdict depends on besides the text: a change of any misses.
  const verdictSettings = JSON.stringify([
    model,
    PROMPT_VERSION,
    options.windowChars,
    options.windowOverlapChars,
    options.maxWindows,
    policy,
  ]);

  return {
    model,
    verdictCache(text, label) {
      const cache = options.cache;
      if (!options.enabled || !options.assessor || !cache) return undefined;
      const { windows, needed } = windowsOf(text);
      // A text past the window bound gets a degraded verdict, which is never cached.
      if (needed > windows.length) return undefined;
      const keys = windows.map((w, i) => windowKey(label, w, i, needed));
      const lookup: VerdictCacheLookup = {
        key: cache.verdictKey(hash('sha256', `${verdictSettings}\0${label}\0${text}`, 'hex')),
        windowKeys: keys.map((k) => cache.redisKey(k)),
        ttlSeconds: cache.ttlSeconds,
        hit: () => {
          for (let i = 0; i < windows.length; i++) observer?.cache('hit');
        },
      };
      split.set(lookup, { text, label, windows, needed, keys });
      return lookup;
    },
    async classify(text, label, call = {}) {
      if (!options.enabled) return degraded('classifier_disabled', 'the classifier is disabled in the configuration');
      const assessor = options.assessor;
      if (!assessor) return degraded('no_api_key', 'no Anthropic API key is configured; the text was not classified');

      const known = call.prefetched && split.get(call.prefetched.lookup);
      const reuse = known && known.text === text && known.label === label ? known : undefined;
      const { windows, needed } = reuse ?? windowsOf(text);
      const keys = reuse?.keys ?? windows.map((w, i) => windowKey(label, w, i, needed));
      const prefetched = reuse ? call.prefetched!.values : undefined;
      // Cache entries the caller will write (call.cacheWrites), handed over
      // when the whole text is classified; if a window fails the job (an
      // abort), the windows already answered are written here instead,
      // so the job's next run does not ask for them again.
      const cache = options.cache;
      const pending: Array<[string, AssessOutcome]> | undefined = cache && call.cacheWrites ? [] : undefined;
      let results: WindowResult[];
      try {
        results = await mapLimit(windows, options.windowConcurrency, (w, i) =>
          assessWindow(assessor, w, label, i, needed, keys[i]!, call, prefetched?.[i], pending),
        );
      } catch (err) {
        if (cache && pending) await Promise.all(pending.map(([k, o]) => cache.set(k, o).catch(() => undefined)));
        throw err;
      }
      if (cache && pending) for (const [k, o] of pending) call.cacheWrites!.push(cache.entry(k, o));

      const assessments: Assessment[] = [];
      let refusal = false;
      const notes: string[] = [];
      let reason: DegradedReason | undefined;
      for (const [i, r] of results.entries()) {
        if (!r.ok) {
          reason ??= r.reason;
          notes.push(`window ${i + 1}: ${r.message}`);
          // An answer that could not be trusted still counts for what it flagged.
          if (r.assessment) assessments.push(r.assessment);
        } else if (r.outcome.kind === 'refusal') {
          refusal = true;
        } else {
          assessments.push(r.outcome.assessment);
        }
      }
      if (needed > windows.length) {
        reason ??= 'text_too_long';
        notes.push(`only ${windows.length} of ${needed} windows were classified (classifier_max_windows)`);
      }

      const merged = assessments.length > 0 ? mergeAssessments(assessments) : undefined;
      let action = merged ? decideAction(merged, policy) : 'allow';
      const categories = merged ? flaggedCategories(merged) : [];
      const rationales = merged ? [merged.rationale] : [];
      if (refusal) {
        // A refusal is a flag, not a "none": the model would not look at it.
        action = mostSevere(action, 'quarantine');
        rationales.push('the classifier refused to assess (part of) this text');
      }
      if (reason !== undefined) {
        observer?.degraded(reason);
        action = mostSevere(action, policy.onError === 'allow' ? 'allow' : 'quarantine');
        rationales.push(...notes);
      }
      return {
        ...base,
        action,
        categories:
          categories.length > 0
            ? categories
            : refusal || (reason !== undefined && policy.onError !== 'allow')
              ? []
              : ['none'],
        confidence: merged?.confidence ?? (refusal ? 1 : 0),
        rationale: rationales.join('\n'),
        degraded: reason !== undefined,
        ...(reason !== undefined ? { reason } : {}),
        refusal,
        windows: windows.length,
        windowed: windows.length > 1,
        cached: results.every((r) => r.ok && r.cached),
      };
    },
  };
}
