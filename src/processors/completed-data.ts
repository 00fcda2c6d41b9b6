/**
 * What a completed classification job keeps of its payload: no text.
 *
 * A job's data is how the text reaches the worker; once the job completes,
 * its result is stored (the verdict store, with the text of a held
 * hypothesis kept for the person who reviews it; the report store) and the
 * job's copy serves no one. Left there, it would show the text of every
 * blocked hypothesis to anyone who browses the queues (Bull Board,
 * Taskforce, `redis-cli`), up to `worker.keep_completed` jobs per queue,
 * beside the one guarded place meant for it. So at completion the text is
 * replaced by a marker and its SHA-256, which still ties the job to the
 * text (a goal's verdict is stored under the first 16 hex digits of it).
 * The ids, revision and run stay, and the job's return value, which holds
 * no text but a report's, is untouched (docs/operations.md#completed-jobs).
 *
 * Only at completion: a job that fails, is retried or stalls still has its
 * text, and a failed job keeps it for a retry. A completed job run again
 * (a "retry" from a dashboard, which re-announces its events) needs no
 * text: its processor finds the stored result, by the digest for a goal.
 * Should that result be gone, the job fails for good instead of
 * classifying the marker (withheldTextError).
 */
import { hash } from 'node:crypto';
import type { QueueName } from '../contracts/queues.js';
import { PayloadError } from '../errors.js';

/** What replaces each withheld text. */
export const WITHHELD_TEXT = '[withheld after completion]';

type Data = Record<string, unknown>;

const sha256 = (text: string) => hash('sha256', text, 'hex');

/** `text` (and `title`, when there is one) replaced by the marker and their digests. */
function withholdFields(data: Data, fields: readonly string[]): Data {
  const out: Data = { ...data };
  for (const field of fields) {
    const value = data[field];
    if (typeof value !== 'string') continue;
    out[field] = WITHHELD_TEXT;
    out[`${field}Sha256`] = sha256(value);
  }
  return out;
}

const WITHHOLD: Partial<Record<QueueName, (data: Data) => Data>> = {
  'hypothesis.saved': (d) => withholdFields(d, ['text', 'title']),
  'goal.submitted': (d) => withholdFields(d, ['text']),
  'report.finalized': (d) => ({
    ...d,
    sections: Array.isArray(d.sections)
      ? d.sections.map((s: unknown) => (isObject(s) ? withholdFields(s, ['text']) : s))
      : d.sections,
  }),
};

function isObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the queue's completed jobs have their text withheld. */
export function withholdsText(queue: QueueName): boolean {
  return WITHHOLD[queue] !== undefined;
}

/** The data a completed job of `queue` keeps; undefined when there is nothing to withhold. */
export function withheldData(queue: QueueName, data: unknown, at: Date): Data | undefined {
  const withhold = WITHHOLD[queue];
  if (!withhold || !isObject(data) || isWithheld(data)) return undefined;
  return { ...withhold(data), withheldAt: at.toISOString() };
}

export function isWithheld(data: unknown): boolean {
  return isObject(data) && typeof data.withheldAt === 'string';
}

/** The SHA-256 (hex) of a withheld text, from the job's data; undefined when the data is not withheld. */
export function withheldDigest(data: unknown): string | undefined {
  if (!isWithheld(data)) return undefined;
  const digest = (data as Data).textSha256;
  return typeof digest === 'string' ? digest : undefined;
}

/** A withheld job whose stored result is gone: without its text it cannot run again. */
export function withheldTextError(queue: QueueName, data: unknown): PayloadError {
  return new PayloadError(
    `${queue} job data was withheld when the job completed (${String((data as Data).withheldAt)}) ` +
      'and its stored result is gone: it cannot run again without its text',
    ['text'],
  );
}
