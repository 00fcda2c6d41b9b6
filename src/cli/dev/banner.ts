/**
 * What `cosci-safety dev` prints once everything answers: where each part
 * is, what verdicts to expect, and three commands to paste into another
 * terminal. The commands carry the private Redis's URL (and the
 * configuration file, when one was read), so that they reach this stack
 * whatever that terminal's environment says.
 */
import type { Config } from '../../config/schema.js';
import type { GoalSubmittedInput, HypothesisSavedInput, ReviewRecordedInput } from '../../contracts/payloads.js';
import { shellCommand } from '../shell.js';

export interface DevStack {
  redis: { url: string; pid: number; dir: string };
  /** The review page's address. */
  pageUrl: string;
  token: string;
  /** The configuration file read, as an absolute path; undefined for the defaults. */
  configFile: string | undefined;
  config: Pick<Config, 'anthropic' | 'safety' | 'models'>;
}

// The README's examples: a hypothesis, a goal, and a review of the hypothesis
// whose excerpt a page is unlikely to hold, so that its citation is flagged.
const HYPOTHESIS: HypothesisSavedInput = {
  hypothesisId: 'h-1',
  text: 'Kinase X phosphorylates Y in yeast.',
  revision: 1,
};
const GOAL: GoalSubmittedInput = { goalId: 'g-1', text: 'Map kinase networks in yeast' };
const REVIEW: ReviewRecordedInput = {
  reviewId: 'r-1',
  hypothesisId: HYPOTHESIS.hypothesisId,
  evidence: [{ claim: 'X phosphorylates Y', url: 'https://example.org/paper', excerpt: 'the quoted sentence' }],
};

/** The three commands: publish the hypothesis, submit the goal and wait for its verdict, publish the review. */
export function tryCommands(stack: Pick<DevStack, 'redis' | 'configFile'>): string[] {
  const cosci = (...args: string[]) =>
    shellCommand([
      `REDIS_URL=${stack.redis.url}`,
      'npx',
      'cosci-safety',
      ...args,
      ...(stack.configFile === undefined ? [] : ['--config', stack.configFile]),
    ]);
  const piped = (payload: unknown, ...args: string[]) =>
    `${shellCommand(['echo', JSON.stringify(payload)])} | ${cosci(...args)}`;
  return [
    piped(HYPOTHESIS, 'publish', 'hypothesis'),
    cosci('submit', 'goal', '--id', GOAL.goalId, '--text', GOAL.text, '--wait'),
    piped(REVIEW, 'publish', 'review'),
  ];
}

/** What the verdicts will be, in words: the model's, or degraded, and what a degraded one does. */
export function verdictsLine(config: DevStack['config']): string {
  const degraded =
    config.safety.classifier_on_error === 'quarantine'
      ? 'held for review (quarantined)'
      : `allowed (safety.classifier_on_error = "${config.safety.classifier_on_error}")`;
  if (!config.safety.enable_classifier)
    return `degraded (classifier_disabled: safety.enable_classifier is false), each ${degraded}`;
  if (!config.anthropic.api_key)
    return `degraded (no_api_key), each ${degraded}: without ANTHROPIC_API_KEY nothing is classified; set it for real verdicts`;
  return `real: ${config.models.classifier} classifies each text (ANTHROPIC_API_KEY is set)`;
}

export function devBanner(stack: DevStack): string {
  const dataDir = `redis-server pid ${stack.redis.pid}, its data in ${stack.redis.dir}, removed at the end`;
  return [
    'cosci-safety dev: running on this machine until Ctrl-C, which stops all of it',
    `  redis        ${stack.redis.url} (${dataDir})`,
    `  review page  ${stack.pageUrl}`,
    `  token        ${stack.token} (the page asks for it)`,
    `  verdicts     ${verdictsLine(stack.config)}`,
    '',
    'Try it from another terminal:',
    ...tryCommands(stack).map((c) => `  ${c}`),
    '',
    'The review page lists what is held; the same REDIS_URL with `npx cosci-safety events tail` prints the events.',
    '',
  ].join('\n');
}
