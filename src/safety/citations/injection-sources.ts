/**
 * The texts of a cited document an injection can be reported in. Apart from
 * the scan (injection-scan.ts) so that the contracts, and through them the
 * review page's script, get the names without the detector.
 */

/**
 * Which text of a document the strongest signal is in; the `source` label of
 * `cosci_safety_injection_suspected_total` and of the event, a fixed set:
 *
 * - `page`: the visible text of an HTML page, or a plain-text document;
 * - `json_ld`: the article text of an HTML page's JSON-LD;
 * - `pdf`: the text of a PDF;
 * - `script_json`: the JSON in an HTML page's other scripts (the article of a
 *   client-rendered page);
 * - `markup`: the texts of an HTML page a reader may be shown besides its
 *   body text: `alt`, `title`, `aria-label` and `data-*` attribute values,
 *   the meta description, comments, templates and `hidden` elements
 *   (markup-text.ts).
 *
 * A page that declares UTF-7 is scanned read as UTF-7 too, under the same
 * names.
 */
export const INJECTION_SOURCES = ['page', 'json_ld', 'pdf', 'script_json', 'markup'] as const;
export type InjectionSource = (typeof INJECTION_SOURCES)[number];
