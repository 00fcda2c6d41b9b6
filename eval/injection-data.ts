/**
 * The development corpus as the injection detector's training and
 * evaluation read it (shared corpus README): attacks by source, benign texts
 * by kind, and the real pages as served. Rows built from one template share
 * a host document, so each row carries a `group` (its `group`, `host` or
 * `family` field) and folds are drawn by group, never by row. Files the
 * corpus marks evaluation only are flagged `evalOnly`: measured on, never
 * trained or calibrated on.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The attack sources left out one at a time (leave-one-source-out). WASP is evaluation only and never trained on. */
export const SOURCES = ['purplellama', 'bipia', 'garak', 'spikee', 'tasktracker', 'greshake+giskard'] as const;
export type AttackSource = (typeof SOURCES)[number] | 'wasp';

export interface Attack {
  source: AttackSource;
  /** The file it came from, without extension. */
  file: string;
  group: string;
  family: string;
  text: string;
  evalOnly: boolean;
}

/** Benign kinds, for the false-positive table. */
export type BenignKind =
  | 'sentence'
  | 'email'
  | 'table'
  | 'review'
  | 'abstract'
  | 'howto'
  | 'protocol'
  | 'recipe'
  | 'terms'
  | 'article'
  | 'readme'
  | 'trigger_words';

export interface Benign {
  kind: BenignKind;
  file: string;
  group: string;
  text: string;
  evalOnly: boolean;
}

export interface Page {
  /** Its folder under pages/ and its name. */
  name: string;
  html: string;
}

export interface Corpus {
  attacks: Attack[];
  benign: Benign[];
  pages: Page[];
  /** SHA-256 over every text read, in order, with its label: the model file records it. */
  digest: string;
}

/** Files marked evaluation only in the corpus README (their licence). */
export const EVAL_ONLY = new Set(['wasp_web_agent', 'disapere_reviews', 'ncbi_disease_abstracts']);

const BENIGN_KIND: Record<string, BenignKind> = {
  'scibert-chemprot-dev': 'sentence',
  'scibert-sci-cite-dev': 'sentence',
  'bipia-email-test': 'email',
  spikee_fp_emails: 'email',
  'bipia-table-test': 'table',
  disapere_reviews: 'review',
  ncbi_disease_abstracts: 'abstract',
  tldr_howto: 'howto',
  wlp_protocols: 'protocol',
  recipes: 'recipe',
  github_site_policy: 'terms',
  magic_html_content: 'article',
  newspaper_article_text: 'article',
  readmes: 'readme',
  notinject: 'trigger_words',
};

function sourceOf(file: string): AttackSource {
  if (file.startsWith('purplellama')) return 'purplellama';
  if (file.startsWith('bipia')) return 'bipia';
  if (file.startsWith('garak')) return 'garak';
  if (file.startsWith('spikee')) return 'spikee';
  if (file.startsWith('tasktracker')) return 'tasktracker';
  if (file.startsWith('wasp')) return 'wasp';
  return 'greshake+giskard';
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** Reads a corpus folder; throws with the path when a file cannot be read. */
export function loadCorpus(dir: string): Corpus {
  const hash = createHash('sha256');
  const read = (file: string): string => readFileSync(path.join(dir, file), 'utf8');
  const attacks: Attack[] = [];
  const injection = path.join(dir, 'injection');
  for (const name of readdirSync(injection).sort()) {
    const file = name.replace(/\.jsonl?$/, '');
    if (file === name) continue;
    const source = sourceOf(file);
    const evalOnly = EVAL_ONLY.has(file);
    const add = (text: string, group: string, family: string): void => {
      if (text.trim() === '') return;
      attacks.push({ source, file, group: `${file}/${group}`, family, text, evalOnly });
    };
    if (name.endsWith('.jsonl')) {
      jsonLines(read(path.join('injection', name))).forEach((row, i) => {
        const family = str(row.family) ?? file;
        const group = str(row.group) ?? str(row.host) ?? (source === 'tasktracker' ? String(i % 50) : family);
        add(str(row.text) ?? '', group, family);
      });
    } else {
      const data = JSON.parse(read(path.join('injection', name))) as unknown;
      if (Array.isArray(data)) {
        for (const c of data as Array<Record<string, unknown>>) {
          const family = str(c.injection_variant) ?? 'purplellama';
          add(str(c.user_input) ?? '', family, family);
        }
      } else if (data !== null && typeof data === 'object') {
        for (const [category, texts] of Object.entries(data as Record<string, unknown>))
          if (Array.isArray(texts)) for (const t of texts) if (typeof t === 'string') add(t, category, category);
      }
    }
  }
  const benign: Benign[] = [];
  for (const name of readdirSync(path.join(dir, 'benign'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const file = name.replace(/\.jsonl$/, '');
    const kind = BENIGN_KIND[file] ?? 'article';
    jsonLines(read(path.join('benign', name))).forEach((row, i) => {
      const text = str(row.text) ?? str(row.context);
      if (text === undefined || text.trim() === '') return;
      // Benign rows are independent texts, but neighbours in a file may share a source: groups of ten in file order.
      benign.push({ kind, file, group: `${file}/${Math.floor(i / 10)}`, text, evalOnly: EVAL_ONLY.has(file) });
    });
  }
  const pages: Page[] = [];
  const pagesDir = path.join(dir, 'pages');
  if (existsSync(pagesDir)) {
    for (const folder of readdirSync(pagesDir).sort()) {
      const at = path.join(pagesDir, folder);
      for (const name of readdirSync(at).sort()) {
        const source = path.join(at, name, 'source.html');
        if (existsSync(source)) pages.push({ name: `${folder}/${name}`, html: readFileSync(source, 'utf8') });
        else if (name.endsWith('.html'))
          pages.push({ name: `${folder}/${name}`, html: readFileSync(path.join(at, name), 'utf8') });
      }
    }
  }
  for (const a of attacks) hash.update(`A\0${a.file}\0${a.text}\0`);
  for (const b of benign) hash.update(`B\0${b.file}\0${b.text}\0`);
  for (const p of pages) hash.update(`P\0${p.name}\0${p.html}\0`);
  return { attacks, benign, pages, digest: hash.digest('hex') };
}

/** A stable fold in [0, folds) for a group name (FNV-1a), so that a group's rows stay together. */
export function foldOf(group: string, folds: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) h = Math.imul(h ^ group.charCodeAt(i), 16777619);
  return (h >>> 0) % folds;
}

/** loadCorpus for a command: a folder that cannot be read ends the command through `usage`, naming it. */
export function readCorpus(dir: string, usage: (message: string) => never): Corpus {
  try {
    return loadCorpus(dir);
  } catch (err) {
    return usage(`cannot read the corpus in ${dir}: ${(err as Error).message}`);
  }
}
