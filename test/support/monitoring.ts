/**
 * Reading the monitoring files (prometheus/, grafana/) for the ops tests: the
 * rules, the dashboard's panels and queries, the metric names they use, and
 * Grafana's variables turned into plain PromQL.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PROMTOOL = '/usr/bin/promtool';
export const PROMETHEUS = '/usr/bin/prometheus';
/** Why a test that runs `bin` is skipped, or undefined when it can run. */
export function missing(bin: string): string | undefined {
  return existsSync(bin) ? undefined : `${bin} is missing: install Debian's prometheus package (.ci/run does)`;
}

export const RULES_DIR = 'prometheus/rules';
export const RULE_TESTS_DIR = 'prometheus/tests';
export const DASHBOARD_FILE = 'grafana/dashboards/cosci-safety.json';
export const OPERATIONS_DOC = 'docs/operations.md';

export function read(path: string): string {
  return readFileSync(ROOT + path, 'utf8');
}

export function readYaml<T>(path: string): T {
  return parse(read(path)) as T;
}

/** Files of a directory with the extension, as paths from the repository root, sorted. */
export function filesIn(dir: string, extension: string): string[] {
  return readdirSync(ROOT + dir)
    .filter((f) => f.endsWith(extension))
    .sort()
    .map((f) => `${dir}/${f}`);
}

export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  rules: Rule[];
}

export function ruleGroups(): RuleGroup[] {
  return filesIn(RULES_DIR, '.yml').flatMap((f) => readYaml<{ groups: RuleGroup[] }>(f).groups);
}

export function rules(): Rule[] {
  return ruleGroups().flatMap((g) => g.rules);
}

export const ruleName = (r: Rule): string => r.alert ?? r.record ?? '(unnamed)';

export interface Target {
  refId: string;
  expr: string;
  legendFormat?: string;
  datasource?: { type: string; uid: string };
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
  panels?: Panel[];
}

export interface Variable {
  name: string;
  type: string;
  label?: string;
  description?: string;
  definition?: string;
  query: string | { query: string };
  allValue?: string;
  datasource?: { type: string; uid: string };
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
}

export function dashboard(): Dashboard {
  return JSON.parse(read(DASHBOARD_FILE)) as Dashboard;
}

/** Every panel that shows data (rows left out, the panels of collapsed rows included). */
export function dataPanels(d: Dashboard = dashboard()): Panel[] {
  return d.panels.flatMap((p) => (p.type === 'row' ? (p.panels ?? []) : [p]));
}

export interface PanelQuery {
  panel: string;
  refId: string;
  expr: string;
}

export function panelQueries(d: Dashboard = dashboard()): PanelQuery[] {
  return dataPanels(d).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, refId: t.refId, expr: t.expr })));
}

export function variableQuery(v: Variable): string {
  return typeof v.query === 'string' ? v.query : v.query.query;
}

/** `label_values(selector, label)`, Grafana's variable query, as its parts. */
export function parseLabelValues(query: string): { match: string; label: string } {
  const m = /^label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$/.exec(query.trim());
  if (!m) throw new Error(`not a label_values query: ${query}`);
  return { match: m[1]!.trim(), label: m[2]! };
}

/** The dashboard's query variables (label_values), which the panels filter by. */
export function queryVariables(d: Dashboard = dashboard()): Variable[] {
  return d.templating.list.filter((v) => v.type === 'query');
}

/** The dashboard's textbox variables (the model prices) with their default values. */
export function textboxDefaults(d: Dashboard = dashboard()): Record<string, string> {
  return Object.fromEntries(
    d.templating.list.filter((v) => v.type === 'textbox').map((v) => [v.name, variableQuery(v)]),
  );
}

/**
 * A panel query as Prometheus receives it from Grafana, with "All" chosen for
 * every query variable: `$queue` and `$pod` become `.*`, each textbox variable
 * its default, `$__rate_interval` the given window. Throws on a variable it
 * does not know, so none slips through.
 */
export function substitute(expr: string, rateInterval: string, textboxes = textboxDefaults()): string {
  let out = expr
    .replaceAll('$__rate_interval', rateInterval)
    .replaceAll('$__interval', '1s')
    .replace(/\$\{?(queue|pod)\}?/g, '.*');
  for (const [name, value] of Object.entries(textboxes))
    out = out.replace(new RegExp(`\\$\\{?${name}\\}?(?![\\w])`, 'g'), value);
  const left = /\$\{?[a-zA-Z_]+/.exec(out);
  if (left) throw new Error(`unknown variable ${left[0]} in ${expr}`);
  return out;
}

/** cosci_safety_ metric names in a text; recording rules (cosci_safety:...) are not metric names. */
export function metricNames(text: string): Set<string> {
  return new Set(text.match(/\bcosci_safety_[a-z0-9_]+/g) ?? []);
}

/**
 * The series selectors of an expression (a metric or recorded series with its
 * label matchers), each of which should select something: a misspelt label
 * value selects nothing, and behind `or` or in an alert nothing shows it.
 */
export function selectors(expr: string): string[] {
  return [...new Set(expr.match(/\b(?:cosci_safety[_:][a-z0-9_:]+|up|ALERTS)(?![\w:(])(?:\{[^}]*\})?/g) ?? [])];
}
