/**
 * The injection corpus as flat texts, for bench:quoting's corpus inputs
 * (its science sentences and page texts); the detector's training and
 * evaluation read the corpus with its sources, groups and kinds
 * (injection-data.ts). Attacks from every `injection/*.json` (PurpleLlama's `user_input`,
 * every BIPIA instruction) and benign texts from every `benign/*.jsonl`
 * (`text`, or `context` for the e-mails and tables) and from the article text
 * of each `pages/readability/NAME/expected.html`.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { htmlToText } from '../src/safety/citations/html-text.js';

export interface CorpusItem {
  /** The file's name without its extension, or `readability-pages`. */
  set: string;
  text: string;
  attack: boolean;
}

/** `read(relative path)` returns a file's text; the caller decides what a missing file means. */
export function loadInjectionCorpus(corpusDir: string, read: (file: string) => string): CorpusItem[] {
  return [...attacks(corpusDir, read), ...benign(corpusDir, read)];
}

function attacks(corpusDir: string, read: (file: string) => string): CorpusItem[] {
  const dir = 'injection';
  const items: CorpusItem[] = [];
  for (const file of readdirSync(path.join(corpusDir, dir))
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(read(path.join(dir, file))) as unknown;
    const set = file.replace(/\.json$/, '');
    if (Array.isArray(data)) {
      for (const c of data as Array<{ user_input?: unknown }>) {
        if (typeof c.user_input === 'string') items.push({ set, text: c.user_input, attack: true });
      }
    } else if (data !== null && typeof data === 'object') {
      for (const texts of Object.values(data as Record<string, unknown>)) {
        if (Array.isArray(texts))
          for (const t of texts) if (typeof t === 'string') items.push({ set, text: t, attack: true });
      }
    }
  }
  return items;
}

function benign(corpusDir: string, read: (file: string) => string): CorpusItem[] {
  const dir = 'benign';
  const items: CorpusItem[] = [];
  for (const file of readdirSync(path.join(corpusDir, dir))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const set = file.replace(/\.jsonl$/, '');
    for (const line of read(path.join(dir, file)).split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as Record<string, unknown>;
      const text = typeof row.text === 'string' ? row.text : row.context;
      if (typeof text === 'string') items.push({ set, text, attack: false });
    }
  }
  const pages = path.join(corpusDir, 'pages', 'readability');
  if (existsSync(pages)) {
    for (const name of readdirSync(pages).sort()) {
      const file = path.join(pages, name, 'expected.html');
      if (!existsSync(file)) continue;
      items.push({ set: 'readability-pages', text: htmlToText(readFileSync(file, 'utf8')), attack: false });
    }
  }
  return items;
}
