/**
 * Where the parsing threads' script is, whether the service runs compiled or
 * from its TypeScript sources.
 *
 * Compiled (dist/, the image, `npm run build`): parse-thread.js beside this
 * file, loaded by Node as it is.
 *
 * From sources (the tests under vitest, `node --import tsx src/cli/main.ts`):
 * this file is a `.ts`, and so is parse-thread.ts, which Node 20 cannot load
 * without a loader. The module hooks of the main thread (tsx's, or vitest's
 * transform) do not reach a worker thread; registering tsx in each thread
 * would work, but tsx then also transforms the large pdf.js modules, which
 * costs each thread over 150 MB and a second of start-up, so tests would
 * measure the loader, not the service. Instead the thread's script is
 * bundled once per process with esbuild (what tsx itself compiles with, in the
 * dev dependencies): our own modules compiled into one file, every package
 * left as an import, so cheerio and pdf.js load natively exactly as in
 * production. The file goes to node_modules/.cache/cosci-safety/, named by a
 * hash of its content, so that its package imports resolve and concurrent
 * test processes share it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let fromSources: Promise<URL> | undefined;

/** Compiles parse-thread.ts and our modules it imports into one ES module file; its URL. */
async function bundleFromSources(entry: string): Promise<URL> {
  const esbuild = await import('esbuild');
  let code: string;
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    code = result.outputFiles[0]!.text;
  } finally {
    // esbuild answers from a child process it keeps for the next call; there is none.
    await esbuild.stop();
  }
  // src/citations/ -> the package root.
  const root = dirname(dirname(dirname(entry)));
  const dir = join(root, 'node_modules', '.cache', 'cosci-safety');
  const file = join(dir, `parse-thread-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written whole under another name, then renamed: a process starting a
    // thread at the same moment never loads half a file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return pathToFileURL(file);
}

/** The URL of the script a parsing thread runs. */
export function parseThreadScript(): Promise<URL> {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return Promise.resolve(new URL('./parse-thread.js', self));
  fromSources ??= bundleFromSources(fileURLToPath(new URL('./parse-thread.ts', self)));
  return fromSources;
}
