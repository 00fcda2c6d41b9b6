/**
 * The Prometheus configuration and rules pass promtool: the configuration
 * and every rule file are valid, and the unit tests in prometheus/tests/
 * pass and cover every alert, firing and quiet, and every recording rule.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  PROMTOOL,
  ROOT,
  RULES_DIR,
  RULE_TESTS_DIR,
  filesIn,
  missing,
  readYaml,
  rules,
  type Rule,
} from '../support/monitoring.js';

interface Run {
  code: number;
  output: string;
}

function promtool(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(PROMTOOL, args, { cwd: ROOT }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** The counts in promtool's "SUCCESS: N rules found" lines. */
const rulesFound = (output: string) => [...output.matchAll(/SUCCESS: (\d+) rules found/g)].map((m) => Number(m[1]));

interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}

interface UnitTests {
  rule_files: string[];
  tests: Array<{
    name: string;
    alert_rule_test?: AlertTest[];
    promql_expr_test?: Array<{ expr: string }>;
  }>;
}

const reason = missing(PROMTOOL);
const allRules: Rule[] = rules();
const ruleFiles = filesIn(RULES_DIR, '.yml');
const testFiles = filesIn(RULE_TESTS_DIR, '.yml');

describe.skipIf(reason !== undefined)(`promtool${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it('checks prometheus/prometheus.yml and the rule files it loads', async () => {
    const run = await promtool('check', 'config', 'prometheus/prometheus.yml');
    expect(run.output).toContain('SUCCESS: prometheus/prometheus.yml is valid prometheus config file syntax');
    expect(run.output).toContain(`SUCCESS: ${ruleFiles.length} rule files found`);
    expect(rulesFound(run.output)).toEqual(
      ruleFiles.map((f) => readYaml<{ groups: Array<{ rules: Rule[] }> }>(f).groups.flatMap((g) => g.rules).length),
    );
    expect(run.code, run.output).toBe(0);
  });

  it('checks every rule file', async () => {
    const run = await promtool('check', 'rules', ...ruleFiles);
    expect(run.code, run.output).toBe(0);
    const found = rulesFound(run.output);
    expect(found).toHaveLength(ruleFiles.length);
    expect(found.reduce((a, b) => a + b, 0)).toBe(allRules.length);
    // Sanity on what was parsed: alerts and recording rules both present.
    expect(allRules.filter((r) => r.alert).length).toBeGreaterThanOrEqual(10);
    expect(allRules.filter((r) => r.record).length).toBeGreaterThanOrEqual(1);
  });

  it('passes the unit tests of the rules', async () => {
    const run = await promtool('test', 'rules', ...testFiles);
    expect(run.code, run.output).toBe(0);
    expect(run.output.match(/^\s+SUCCESS$/gm)).toHaveLength(testFiles.length);
    expect(run.output).not.toContain('FAILED');
  });

  it('unit-tests every alert both firing and not firing, and every recording rule', () => {
    const suites = testFiles.map((f) => readYaml<UnitTests>(f));
    const loaded = new Set(suites.flatMap((s) => s.rule_files.map((r) => r.replace(/^\.\.\//, 'prometheus/'))));
    expect([...loaded].sort()).toEqual(ruleFiles);

    const cases = suites.flatMap((s) => s.tests.flatMap((t) => t.alert_rule_test ?? []));
    const exprs = suites.flatMap((s) => s.tests.flatMap((t) => t.promql_expr_test ?? [])).map((t) => t.expr);
    const alerts = allRules.flatMap((r) => (r.alert ? [r.alert] : []));
    const uncovered = alerts.flatMap((name) => {
      const mine = cases.filter((c) => c.alertname === name);
      const problems: string[] = [];
      if (!mine.some((c) => (c.exp_alerts ?? []).length > 0)) problems.push(`${name}: no firing case`);
      if (!mine.some((c) => (c.exp_alerts ?? []).length === 0)) problems.push(`${name}: no quiet case`);
      return problems;
    });
    expect(uncovered).toEqual([]);
    // Tests name no alert that does not exist.
    expect([...new Set(cases.map((c) => c.alertname))].filter((n) => !alerts.includes(n))).toEqual([]);
    const records = allRules.flatMap((r) => (r.record ? [r.record] : []));
    expect(records.filter((name) => !exprs.some((e) => e.includes(name)))).toEqual([]);
  });
});
