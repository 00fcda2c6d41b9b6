/**
 * The dashboard, the rules and docs/operations.md against the metrics the
 * worker exports: every metric they name exists, every metric exported is on
 * a panel or in a rule (or is listed below with the reason it is not), every
 * panel says what it shows and selects by the variables, and every alert has
 * a severity, a summary and a runbook section that exists.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/metrics.js';
import {
  DASHBOARD_FILE,
  OPERATIONS_DOC,
  dashboard,
  dataPanels,
  metricNames,
  panelQueries,
  parseLabelValues,
  queryVariables,
  read,
  readYaml,
  rules,
  textboxDefaults,
  variableQuery,
} from '../support/monitoring.js';

/**
 * Exported metrics that no panel or rule reads, and why. Most are Node.js and
 * process metrics from prom-client's defaults that another metric on the
 * dashboard already covers.
 */
const JUSTIFIED: Record<string, string> = {
  cosci_safety_process_cpu_user_seconds_total:
    'user and system time together are process_cpu_seconds_total (CPU panel)',
  cosci_safety_process_cpu_system_seconds_total:
    'user and system time together are process_cpu_seconds_total (CPU panel)',
  cosci_safety_process_virtual_memory_bytes:
    'address space reserved by V8 and libuv, not memory used; resident memory is what limits count',
  cosci_safety_process_heap_bytes:
    "the process's data segment; the V8 heap gauges (Memory panel) say more about a Node.js process",
  cosci_safety_nodejs_eventloop_lag_seconds:
    'one timer measurement per scrape; the percentiles of the event-loop delay histogram are steadier',
  cosci_safety_nodejs_eventloop_lag_min_seconds:
    'the Event-loop lag panel shows p50, p99 and max; the minimum tells nothing of trouble',
  cosci_safety_nodejs_eventloop_lag_mean_seconds: 'the mean hides the tail; p50 and p99 are shown',
  cosci_safety_nodejs_eventloop_lag_stddev_seconds: 'spread is visible from p50 against p99',
  cosci_safety_nodejs_eventloop_lag_p90_seconds: 'between the p50 and p99 shown',
  cosci_safety_nodejs_active_resources:
    'per-type breakdown of active resources, for debugging a leak once Active handles shows one',
  cosci_safety_nodejs_active_resources_total: 'overlaps active handles and requests; Active handles shows the trend',
  cosci_safety_nodejs_active_handles:
    'per-type breakdown of active_handles_total (Active handles panel), for debugging',
  cosci_safety_nodejs_active_requests: 'per-type breakdown of libuv requests in flight, for debugging',
  cosci_safety_nodejs_active_requests_total:
    'libuv requests in flight (file system, DNS): short-lived, rarely informative here',
  cosci_safety_nodejs_heap_space_size_total_bytes: 'per V8 heap space; the Memory panel shows the whole heap',
  cosci_safety_nodejs_heap_space_size_used_bytes: 'per V8 heap space; the Memory panel shows the whole heap',
  cosci_safety_nodejs_heap_space_size_available_bytes: 'per V8 heap space; the Memory panel shows the whole heap',
  cosci_safety_nodejs_version_info: 'the Node.js version as labels, for ad-hoc queries during an upgrade',
  cosci_safety_queue_paused:
    "a paused queue's jobs count as waiting: the CosciSafetyOldestJobWaiting runbook reads it to tell a queue paused by hand from one nobody works",
  cosci_safety_queue_depth_last_read_timestamp_seconds:
    'how old the depth served under cosci_safety_queue_depth_stale is, for a look during an outage; the alert reads the stale gauge',
};

/** Series names a metric exports: a histogram's _bucket, _sum and _count. */
async function exported(): Promise<Map<string, string[]>> {
  const { registry } = createMetrics();
  const out = new Map<string, string[]>();
  for (const m of await registry.getMetricsAsJSON()) {
    out.set(m.name, String(m.type) === 'histogram' ? ['_bucket', '_sum', '_count'].map((s) => m.name + s) : [m.name]);
  }
  return out;
}

const queries = panelQueries();
const allRules = rules();
const variables = dashboard().templating.list;
/** What the dashboard and the rules compute from. */
const usedText = [...queries.map((q) => q.expr), ...variables.map(variableQuery), ...allRules.map((r) => r.expr)].join(
  '\n',
);
/** Anything else that names a metric: panel descriptions, rule annotations, the operations page. */
const mentionText = [
  ...dataPanels().map((p) => p.description ?? ''),
  ...allRules.flatMap((r) => Object.values(r.annotations ?? {})),
  read(OPERATIONS_DOC),
].join('\n');

describe('metric coverage', () => {
  it('names only metrics the worker exports, in queries, descriptions and docs/operations.md', async () => {
    const series = new Set([...(await exported()).values()].flat());
    expect(series.size).toBeGreaterThan(40);
    const unknown = [...metricNames(usedText), ...metricNames(mentionText)].filter((n) => !series.has(n));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('shows every exported metric on a panel or in a rule, or says why not', async () => {
    const used = metricNames(usedText);
    const metrics = await exported();
    const unused = [...metrics].filter(([, names]) => !names.some((n) => used.has(n))).map(([name]) => name);
    expect(unused.filter((n) => !(n in JUSTIFIED)).sort()).toEqual([]);
    // The list stays honest: nothing in it that is used, or no longer exported.
    expect(Object.keys(JUSTIFIED).filter((n) => !unused.includes(n))).toEqual([]);
    expect(Object.values(JUSTIFIED).every((why) => why.length > 20)).toBe(true);
  });
});

describe(`the dashboard (${DASHBOARD_FILE})`, () => {
  const d = dashboard();
  const panels = dataPanels(d);
  const { datasources } = readYaml<{ datasources: Array<{ uid: string; type: string; url: string }> }>(
    'grafana/provisioning/datasources/prometheus.yml',
  );

  it('is provisioned from the folder the provider reads, with the data source the panels name', () => {
    const { providers } = readYaml<{ providers: Array<{ type: string; options: { path: string } }> }>(
      'grafana/provisioning/dashboards/cosci-safety.yml',
    );
    expect(providers.map((p) => [p.type, p.options.path])).toEqual([['file', '/var/lib/grafana/dashboards']]);
    expect(datasources).toHaveLength(1);
    expect(datasources[0]).toMatchObject({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' });
    expect(d.uid).toBe('cosci-safety');
    expect(d.schemaVersion).toBe(39);
  });

  it('gives every panel a unique id, a description, the data source by uid, and queries', () => {
    const uid = datasources[0]!.uid;
    const problems = panels.flatMap((p) => {
      const out: string[] = [];
      if (!p.description || p.description.length < 40) out.push(`${p.title}: no description`);
      if (p.datasource?.uid !== uid) out.push(`${p.title}: data source ${JSON.stringify(p.datasource)}`);
      if (!['timeseries', 'stat'].includes(p.type)) out.push(`${p.title}: panel type ${p.type}`);
      const targets = p.targets ?? [];
      if (targets.length === 0) out.push(`${p.title}: no query`);
      if (new Set(targets.map((t) => t.refId)).size !== targets.length) out.push(`${p.title}: refIds repeat`);
      for (const t of targets) if (t.datasource?.uid !== uid) out.push(`${p.title} ${t.refId}: data source`);
      return out;
    });
    expect(problems).toEqual([]);
    const ids = d.panels.flatMap((p) => [p, ...(p.panels ?? [])]).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(panels.map((p) => p.title)).size).toBe(panels.length);
  });

  it('lays the panels out on the grid without overlap', () => {
    const cells = new Map<string, string>();
    for (const p of d.panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          const key = `${i},${j}`;
          expect(cells.get(key), `${p.title} overlaps`).toBeUndefined();
          cells.set(key, p.title);
        }
      }
    }
  });

  it('has the queue and pod variables, and the queries select by them', () => {
    expect(queryVariables(d).map((v) => [v.name, parseLabelValues(variableQuery(v))])).toEqual([
      ['queue', { match: 'cosci_safety_jobs_total', label: 'queue' }],
      ['pod', { match: 'up{job="cosci-safety"}', label: 'pod' }],
    ]);
    for (const v of queryVariables(d)) {
      expect(v.allValue, v.name).toBe('.*');
      // Grafana runs `query`; `definition` is what its editor shows: they must agree.
      expect(v.definition, v.name).toBe(variableQuery(v));
    }
    // Metrics with a queue label are filtered by $queue. Everything per process
    // is filtered by $pod, except what one process exports for the whole cluster
    // (queue depth), the recorded ratio, and the alerts.
    const queueMetrics = /cosci_safety_(jobs_total|job_duration_seconds|queue_jobs|queue_oldest_waiting_seconds)\b/;
    const clusterWide =
      /cosci_safety_(queue_jobs|queue_oldest_waiting_seconds|queue_depth_exporter)\b|cosci_safety:|ALERTS/;
    const problems = queries.flatMap((q) => {
      const out: string[] = [];
      if (queueMetrics.test(q.expr) && !q.expr.includes('queue=~"$queue"')) out.push(`${q.panel}: no $queue`);
      if (!clusterWide.test(q.expr) && !q.expr.includes('pod=~"$pod"')) out.push(`${q.panel}: no $pod`);
      return out;
    });
    expect(problems).toEqual([]);
  });
});

describe('the model prices', () => {
  const d = dashboard();
  const prices = d.templating.list.filter((v) => v.type === 'textbox');

  it('are textbox variables, Claude Haiku 4.5 list prices in dollars per million tokens by default', () => {
    expect(Object.entries(textboxDefaults(d))).toEqual([
      ['price_input', '1'],
      ['price_output', '5'],
      ['price_cache_write', '1.25'],
      ['price_cache_read', '0.1'],
    ]);
    for (const v of prices) {
      expect(v.label, v.name).toMatch(/\$\/Mtok$/);
      expect(v.description, v.name).toMatch(/^US dollars per million /);
    }
    // Only the prices are textboxes: every other variable is a query the panels filter by.
    expect(d.templating.list.length).toBe(prices.length + queryVariables(d).length);
  });

  it('price every token kind in each cost query, the kind matched to its price', () => {
    const costs = queries.filter((q) => q.expr.includes('$price_'));
    expect(costs.map((q) => q.panel).sort()).toEqual(['Estimated model cost', 'Estimated model cost (24h)']);
    for (const q of costs) {
      const terms = [...q.expr.matchAll(/kind="([a-z_]+)"[^*]*\* \$(price_[a-z_]+)/g)].map((m) => [m[1], m[2]]);
      expect(terms, q.panel).toEqual([
        ['input', 'price_input'],
        ['output', 'price_output'],
        ['cache_write', 'price_cache_write'],
        ['cache_read', 'price_cache_read'],
      ]);
      expect(q.expr, q.panel).toMatch(/\) \/ 1e6/);
    }
  });
});

describe('the alert rules', () => {
  const doc = read(OPERATIONS_DOC);
  /** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens. */
  const anchors = new Set(
    [...doc.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
  const alerts = allRules.filter((r) => r.alert);

  it('give every alert a severity, a summary, a description and a runbook section in docs/operations.md', () => {
    const problems = alerts.flatMap((r) => {
      const out: string[] = [];
      const a = r.annotations ?? {};
      if (!['critical', 'warning', 'info'].includes(r.labels?.severity ?? '')) out.push(`${r.alert}: severity`);
      if (!a.summary) out.push(`${r.alert}: summary`);
      if (!a.description) out.push(`${r.alert}: description`);
      const m = /^docs\/operations\.md#(.+)$/.exec(a.runbook_url ?? '');
      if (!m) out.push(`${r.alert}: runbook_url ${a.runbook_url}`);
      else if (!anchors.has(m[1]!)) out.push(`${r.alert}: no section #${m[1]} in ${OPERATIONS_DOC}`);
      else if (m[1] !== r.alert!.toLowerCase()) out.push(`${r.alert}: runbook is #${m[1]}`);
      return out;
    });
    expect(problems).toEqual([]);
  });

  it('are named once each, and docs/operations.md describes every panel', () => {
    const names = alerts.map((r) => r.alert);
    expect(new Set(names).size).toBe(names.length);
    expect(
      dataPanels()
        .map((p) => p.title)
        .filter((title) => !doc.includes(`| ${title} `)),
    ).toEqual([]);
  });
});
