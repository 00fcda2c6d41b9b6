/**
 * What a job's id and revision name: its content, as one SHA-256 digest.
 *
 * A job id names a subject and a revision (`hypothesis.h-1.r1`); the verdict,
 * a person's decision and the events of that revision are about the content
 * it was first published with. The stores keep the digest beside each
 * revision's result, and every job is checked against it, so that other
 * content under a used revision is a conflict (docs/contract.md#a-revision-is-its-content)
 * instead of inheriting a verdict or a decision made on something else.
 *
 * The digest covers what is judged: a hypothesis's text and title; a
 * review's hypothesis, evidence and seen URLs; a report's sections; a goal's
 * text. Not what only describes a publish (run, agent, timestamps): the same
 * text published again with a new `savedAt` is the same revision. Each text
 * enters as its own SHA-256, so a completed job, whose text is withheld and
 * replaced by that SHA-256 (`textSha256`, src/processors/completed-data.ts),
 * still has the digest of what it carried.
 */
import { hash } from 'node:crypto';
import type { PayloadOf, QueueName } from './queues.js';

const sha256 = (text: string): string => hash('sha256', text, 'hex');

const HEX64 = /^[0-9a-f]{64}$/;

type Data = Record<string, unknown>;

function isObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The SHA-256 of a text field: the one a withheld job carries in
 * `<field>Sha256`, else that of the text itself.
 */
function textDigest(raw: unknown, withheld: boolean, field: string, value: string): string {
  const kept = isObject(raw) ? raw[`${field}Sha256`] : undefined;
  return withheld && typeof kept === 'string' && HEX64.test(kept) ? kept : sha256(value);
}

type Parts = { [Q in QueueName]: (p: PayloadOf<Q>, raw: unknown, withheld: boolean) => unknown[] };

/** The JSON array whose SHA-256 is the digest, per queue; the queue's name first, so no two queues share one. */
const PARTS: Parts = {
  'hypothesis.saved': (p, raw, w) => [
    textDigest(raw, w, 'text', p.text),
    p.title === undefined ? null : textDigest(raw, w, 'title', p.title),
  ],
  'goal.submitted': (p, raw, w) => [textDigest(raw, w, 'text', p.text)],
  'review.recorded': (p) => [
    p.hypothesisId,
    p.evidence.map((e) => [e.claim, e.url, e.excerpt]),
    // A set of URLs: their order says nothing.
    p.seenUrls === undefined ? null : [...new Set(p.seenUrls)].sort(),
  ],
  'report.finalized': (p, raw, w) => {
    const sections = isObject(raw) && Array.isArray(raw.sections) ? (raw.sections as unknown[]) : [];
    return [p.sections.map((s, i) => [textDigest(sections[i], w, 'text', s.text), s.hypothesisId ?? null])];
  },
};

/**
 * The content digest (64 hex digits) of a validated payload. `raw` is the
 * job's data as stored, for a completed job whose texts are withheld; a
 * publisher passes nothing.
 */
export function contentDigest<Q extends QueueName>(queue: Q, payload: PayloadOf<Q>, raw?: unknown): string {
  const withheld = isObject(raw) && typeof raw.withheldAt === 'string';
  const parts = (PARTS[queue] as (p: PayloadOf<Q>, raw: unknown, withheld: boolean) => unknown[])(
    payload,
    raw,
    withheld,
  );
  return sha256(JSON.stringify([queue, ...parts]));
}

/** The short form that event ids carry: the first 16 hex digits. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 16);
}
