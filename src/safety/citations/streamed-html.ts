/**
 * Where a streamed page's script puts the blocks it was sent after its shell.
 *
 * React's streaming server rendering (Fizz: `renderToPipeableStream`, used by
 * Next.js and Remix) first sends a shell with a placeholder where content is
 * not ready: a Suspense boundary, `<!--$?--><template id="B:0"></template>`,
 * then its fallback (a spinner, "Loading…") and `<!--/$-->`; or a plain
 * placeholder, `<template id="P:0"></template>`. The content follows later in
 * the same response as `<div hidden id="S:0">…</div>` and a script that moves
 * it into place:
 *
 * - `$RC("B:0","S:0")` (and `$RR("B:0","S:0",[…])`, the same once the styles
 *   it names are loaded): the fallback after the boundary's template, up to
 *   the matching `<!--/$-->`, is replaced by the children of S:0;
 *   with an error digest as a third argument (`$RC("B:0","S:0","…")`) the
 *   fallback stays and S:0 is removed;
 * - `$RS("S:0","P:0")`: the children of S:0 go where P:0 is.
 *
 * See React's `ReactDOMFizzInstructionSetShared.js` (completeBoundary,
 * completeSegment): in every case the hidden block is taken out of where it
 * was sent, whether or not its placeholder is found. A fetcher that runs no
 * script sees the article only in hidden blocks, and the page's visible text
 * was a few dozen characters. So the text is read where the script puts it,
 * for a move whose call is in the page only: a hidden block no call names
 * stays hidden, as any `hidden` element.
 *
 * This module finds the moves; html-text.ts follows them in its walk instead
 * of changing the document. Elements are found by id as `getElementById`
 * finds them: the first in document order, never inside a `<template>`,
 * whose content is inert.
 */
import { nextAfter, type MarkupNode } from './markup-tree.js';

/** A move a call of the page makes: the children of `segment` read in place of a placeholder. */
export interface StreamMove {
  readonly segment: MarkupNode;
  /** True for a Suspense boundary ($RC, $RR): its fallback, after the placeholder, is replaced too. */
  readonly boundary: boolean;
}

/** The moves of a streamed page. */
export interface Streamed {
  /** Each placeholder filled by a call, with its move. */
  readonly moves: ReadonlyMap<MarkupNode, StreamMove>;
  /** Every block a call takes out of where it was sent: never read there. */
  readonly sent: ReadonlySet<MarkupNode>;
}

/**
 * A cheap test of the page's source before any walk: a page without one of
 * these calls pays for nothing else.
 */
const CALL_HINT = /\$R[CRS]\(/;

/**
 * A call with two string arguments, and the third when it is a string. React
 * writes the arguments as JSON strings; the ids it makes never hold a quote
 * or a backslash, so an argument that does is no call of React's. Each
 * attempt stops at the next quote: linear in the script.
 */
const CALL = /\$R([CRS])\(\s*"([^"\\]*)"\s*,\s*"([^"\\]*)"\s*(?:,\s*"([^"\\]*)")?/g;

/** Whether the page's source may hold a call that moves a streamed block; false means it holds none. */
export function mayStream(html: string): boolean {
  return CALL_HINT.test(html);
}

/**
 * The moves the calls in the page's scripts make, resolved by id. Only
 * scripts that `runs` says run are read. The first call for a block or a
 * placeholder is the one that counts: the block is gone by the next one, and
 * so is the placeholder of $RS. One walk of the document and one pass over
 * each script: linear, however many blocks and calls the page has.
 */
export function streamedMoves(root: MarkupNode, runs: (script: MarkupNode) => boolean): Streamed {
  const byId = new Map<string, MarkupNode>();
  const calls: Array<{ kind: string; first: string; second: string; digest: string | undefined }> = [];
  let node: MarkupNode | null = root.children?.[0] ?? null;
  while (node !== null) {
    if (node.attribs !== undefined) {
      const id = node.attribs.id;
      if (id !== undefined && !byId.has(id)) byId.set(id, node);
      if (node.name === 'script' && runs(node)) {
        for (const child of node.children ?? []) {
          if (child.type !== 'text') continue;
          for (const m of child.data!.matchAll(CALL)) {
            calls.push({ kind: m[1]!, first: m[2]!, second: m[3]!, digest: m[4] });
          }
        }
      }
      const first = node.children?.[0];
      if (node.name !== 'template' && node.name !== 'script' && first !== undefined) {
        node = first;
        continue;
      }
    }
    node = nextAfter(node, root);
  }
  const moves = new Map<MarkupNode, StreamMove>();
  const sent = new Set<MarkupNode>();
  for (const call of calls) {
    // $RC and $RR name the boundary first, $RS the block first.
    const boundary = call.kind !== 'S';
    const segment = byId.get(boundary ? call.second : call.first);
    if (segment === undefined || sent.has(segment)) continue;
    sent.add(segment);
    // `$RR` passes its styles third; only `$RC` passes an error digest there.
    if (call.kind === 'C' && call.digest !== undefined && call.digest !== '') continue;
    const placeholder = byId.get(boundary ? call.first : call.second);
    if (placeholder === undefined || placeholder === segment || moves.has(placeholder)) continue;
    moves.set(placeholder, { segment, boundary });
  }
  return { moves, sent };
}

/** Comments that open a Suspense boundary: completed, pending, client-rendered (React's SUSPENSE_*_DATA). */
const BOUNDARY_OPEN = new Set(['$', '$?', '$!']);
const BOUNDARY_CLOSE = '/$';

/**
 * The last node of the fallback a boundary's content replaces: the siblings
 * after its template up to the `<!--/$-->` that closes the boundary (counting
 * the boundaries nested in the fallback), or to the last sibling when none
 * does, as completeBoundary removes them; the template itself when there is
 * no fallback. The walk reads none of them, so each node is looked at here
 * at most once in a whole page.
 */
export function fallbackEnd(template: MarkupNode): MarkupNode {
  let last = template;
  let depth = 0;
  for (let n = template.next; n !== null; n = n.next) {
    if (n.type === 'comment') {
      if (n.data === BOUNDARY_CLOSE) {
        if (depth === 0) break;
        depth--;
      } else if (BOUNDARY_OPEN.has(n.data!)) {
        depth++;
      }
    }
    last = n;
  }
  return last;
}
