/**
 * Building the page's elements. Data is only ever set as text (textContent,
 * attributes by name), never parsed as HTML: the page's Trusted Types policy
 * would refuse it anyway (src/http/review-page.ts).
 */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}

/** An element with optional text and class. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string | number | null,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

/** Text from an agent or a person: isolated, so that direction marks in it cannot reorder what is around it. */
export function untrusted<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text: string,
  className = '',
): HTMLElementTagNameMap[K] {
  const node = el(tag, text, `u ${className}`.trim());
  node.dir = 'auto';
  return node;
}

export function fact(dl: HTMLElement, term: string, value: string | Node): void {
  const dd = el('dd');
  if (typeof value === 'string') dd.textContent = value;
  else dd.append(value);
  dl.append(el('dt', term), dd);
}

export function button(text: string, className?: string): HTMLButtonElement {
  const b = el('button', text, className);
  b.type = 'button';
  return b;
}
