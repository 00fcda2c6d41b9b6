/**
 * What a result and a `citation_unverified` event say of an excerpt that is
 * not on its page: whether the page holds a passage close to it, and that
 * passage with a word-level diff (docs/citations.md#near-misses). Optional
 * everywhere: results and events written before near misses were diagnosed
 * lack them, and consumers of those are unchanged.
 */
import { z } from 'zod';
import { CHANGE_KINDS, NEAR_MISS_DETAILS } from '../safety/citations/near-miss-kinds.js';
import { TEXT_SOURCES } from '../safety/citations/page-sources.js';

/** `altered` when the page holds a passage close to the excerpt (`nearMiss` then says which), `absent` when not. */
export const NearMissDetailSchema = z.enum(NEAR_MISS_DETAILS);

/** One segment of the diff, in the excerpt's order: shared words as the page has them, or a named change. */
export const DiffSegmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('same'), text: z.string() }),
  z.object({
    /** number_changed, word_inserted, word_removed, word_changed or negation. */
    kind: z.enum(CHANGE_KINDS),
    /** The excerpt's words; empty for words of the page it leaves out. */
    excerpt: z.string(),
    /** The page's words; empty for words the excerpt puts in. */
    page: z.string(),
  }),
]);
export type DiffSegmentData = z.infer<typeof DiffSegmentSchema>;

/** The passage of the page closest to an excerpt not on it. */
export const NearMissSchema = z.object({
  /** Which text of the page holds it: the visible text, the JSON-LD text or the scripts' JSON. */
  source: z.enum(TEXT_SOURCES),
  /**
   * Offsets, in UTF-16 code units, into that text as the service extracted
   * it and normalised it for matching (lower case, white space made single
   * spaces), not into the document's bytes.
   */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** The passage, in that normal form: at most twice the excerpt's normalised length. */
  passage: z.string(),
  /** 2 × words shared / (the excerpt's words + the passage's words), 0 to 1, three decimals. */
  similarity: z.number().min(0).max(1),
  diff: z.array(DiffSegmentSchema),
  /** For an excerpt with elisions (`…`): which of its parts, from 0, the passage is of (the first not on the page). */
  part: z.number().int().nonnegative().optional(),
});
export type NearMissData = z.infer<typeof NearMissSchema>;
