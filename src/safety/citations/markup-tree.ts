/**
 * The part of a parsed page that the markup walks read, and the step they
 * share. The walks are iterative, not recursive, so a deeply nested page
 * cannot overflow the stack; each leaves a node the same way.
 */

/** The part of a domhandler node the walks read (as in html-text.ts). */
export interface MarkupNode {
  readonly type: string;
  readonly name?: string;
  readonly data?: string;
  readonly attribs?: Record<string, string>;
  readonly children?: readonly MarkupNode[];
  readonly parent: MarkupNode | null;
  readonly next: MarkupNode | null;
}

/**
 * The node a walk reads after `node` and everything under it: its next
 * sibling, or its nearest ancestor's below `root`; null at the end of
 * `root`. `leaving` is told of `node` and of each ancestor left on the way,
 * innermost first, so a walk can close what it opened there.
 */
export function nextAfter(node: MarkupNode, root: MarkupNode, leaving?: (left: MarkupNode) => void): MarkupNode | null {
  let at: MarkupNode | null = node;
  while (at !== null) {
    leaving?.(at);
    if (at.next !== null) return at.next;
    at = at.parent;
    if (at === root) return null;
  }
  return null;
}
