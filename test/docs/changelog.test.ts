/**
 * CHANGELOG.md keeps the shape of Keep a Changelog with semantic versions, so
 * that a release only has to rename its Unreleased section: an Unreleased
 * section first, naming the version of package.json while that version has
 * no section of its own; then releases, newest first, each `## [X.Y.Z] -
 * YYYY-MM-DD`, the newest of them package.json's version once it is there;
 * and only Keep a Changelog's kinds of change under each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = readFileSync('CHANGELOG.md', 'utf8');
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

/** Each `## ` section: its heading and the text under it. */
const parts = text
  .split(/^## /m)
  .slice(1)
  .map((part) => ({ heading: part.slice(0, part.indexOf('\n')), body: part.slice(part.indexOf('\n') + 1) }));
const sections = parts.map((p) => p.heading);
const releases = sections.slice(1).map((heading) => {
  const m = /^\[([^\]]+)\] - (\d{4}-\d\d-\d\d)$/.exec(heading);
  return { heading, version: m?.[1], date: m?.[2] };
});

/** Numeric order of two plain versions, major first. */
function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
}

describe('CHANGELOG.md', () => {
  it('starts with an Unreleased section', () => {
    expect(sections[0]).toBe('[Unreleased]');
  });

  it('names the version of package.json: the newest release, or the one Unreleased becomes', () => {
    expect(version).toMatch(SEMVER);
    if (releases[0]?.version === version) return;
    expect(parts[0]!.body).toContain(version);
    expect(releases.every((r) => r.version !== undefined && compare(r.version, version) < 0)).toBe(true);
  });

  it('gives each release a semantic version and a date, newest first', () => {
    for (const r of releases) {
      expect(r.version, r.heading).toMatch(SEMVER);
      expect(Number.isNaN(Date.parse(r.date!)), r.heading).toBe(false);
    }
    for (let i = 1; i < releases.length; i++) {
      expect(compare(releases[i - 1]!.version!, releases[i]!.version!)).toBeGreaterThan(0);
      expect(releases[i - 1]!.date! >= releases[i]!.date!).toBe(true);
    }
  });

  it("sorts changes under Keep a Changelog's kinds only", () => {
    const kinds = [...text.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) expect(KINDS).toContain(kind);
  });
});
