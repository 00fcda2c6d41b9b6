/**
 * A project made as a user makes one: this checkout packed with `npm pack`
 * (the built dist/: run `npm run build` first; the pack skips the prepack
 * build, which would rewrite dist/ under the feet of the tests that run it)
 * and installed from its tarball with npm, beside the packages the tests
 * name (ioredis 6, the Bull Board of docs/operations.md; or the BullMQ and
 * ioredis at one end of the ranges the package allows), from the registry
 * or, when warm, npm's cache. npm resolves the package's dependencies as it
 * does for a user: its peers, BullMQ and ioredis, are the project's own.
 *
 * The test files that need the same packages share one project. It is kept
 * in the temporary folder under a digest of the tarball and the packages, so
 * a run whose tarball and packages have not changed uses the one made
 * before; the first test file to ask makes it under a lock, the others wait
 * for it. One unused for a day is removed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StopPolling, until } from './poll.js';

const run = promisify(execFile);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** What `npm i ioredis` installs today. */
export const IOREDIS_6 = 'ioredis@6.0.0';

/**
 * The packages that docs/operations.md gives its Bull Board (the
 * `package.json` block that names `@bull-board/api`), as name@version.
 */
export function bullBoardPackages(): string[] {
  const text = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  for (const m of text.matchAll(/^```json\n([\s\S]*?)^```/gm)) {
    const manifest = JSON.parse(m[1]!) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    if (!manifest.dependencies?.['@bull-board/api']) continue;
    return Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).map(([n, v]) => `${n}@${v}`);
  }
  throw new Error('docs/operations.md has no package.json block naming @bull-board/api');
}

const READY = '.ready';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A lock older than this was left by a run that died while installing. */
const STALE_LOCK_MS = 10 * 60 * 1000;

export interface FreshProject {
  /** The project's folder: node_modules and a package.json of `"type": "module"`. */
  dir: string;
  /** A new folder inside the project for one test's files (they resolve the project's node_modules). */
  workspace(tag: string): string;
}

/** Packs this checkout; the tarball's path. */
async function pack(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'cosci-pack-'));
  await run(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', out], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  });
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball in ${out}`);
  return join(out, tarball);
}

function removeUnused(except: string): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith('cosci-fresh-') || entry === except || entry.endsWith('.lock')) continue;
    const ready = join(tmpdir(), entry, READY);
    try {
      if (Date.now() - statSync(ready).mtimeMs > DAY_MS)
        rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    } catch {
      // Being made, or removed by another run meanwhile.
    }
  }
}

async function install(dir: string, tarball: string, packages: readonly string[]): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh', private: true, type: 'module' }));
  // The tarball is copied in: the project must not depend on a folder that goes away.
  const local = join(dir, 'cosci-safety.tgz');
  writeFileSync(local, readFileSync(tarball));
  await run(
    npm,
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      local,
      ...packages,
    ],
    { cwd: dir, maxBuffer: 16 << 20, timeout: 5 * 60_000 },
  );
  writeFileSync(join(dir, READY), new Date().toISOString());
}

/**
 * A fresh project with the packed package and `packages` (npm specs)
 * installed; by default ioredis 6 and the Bull Board of docs/operations.md.
 */
export async function freshProject(
  packages: readonly string[] = [IOREDIS_6, ...bullBoardPackages()],
): Promise<FreshProject> {
  const tarball = await pack();
  try {
    const digest = createHash('sha256')
      .update(readFileSync(tarball))
      .update(JSON.stringify([...packages].sort()))
      .digest('hex')
      .slice(0, 16);
    const name = `cosci-fresh-${digest}`;
    const dir = join(tmpdir(), name);
    const lock = `${dir}.lock`;
    removeUnused(name);
    await until(
      `the fresh project ${dir} is made by another test file`,
      async () => {
        if (existsSync(join(dir, READY))) return true;
        try {
          mkdirSync(lock);
        } catch {
          // Another test file is making it; unless it died doing so.
          const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
          if (Date.now() - since > STALE_LOCK_MS) rmSync(lock, { force: true, recursive: true });
          return false;
        }
        try {
          await install(dir, tarball, packages);
        } catch (err) {
          // Not retried: an install that failed once fails again.
          throw new StopPolling(`installing into ${dir} failed: ${(err as Error).message}`);
        } finally {
          rmSync(lock, { recursive: true, force: true });
        }
        return true;
      },
      { timeoutMs: 6 * 60_000, everyMs: 500 },
    );
    const now = new Date();
    utimesSync(join(dir, READY), now, now);
    return {
      dir,
      workspace(tag: string) {
        return mkdtempSync(join(dir, `${tag}-`));
      },
    };
  } finally {
    rmSync(dirname(tarball), { recursive: true, force: true });
  }
}

/**
 * Type-checks the `.ts` files of `dir` (a workspace of a fresh project) as a
 * user's project would: against the project's node_modules, strict, with
 * `skipLibCheck` as most projects have it (checking every declaration file
 * of the dependencies would triple the time). A declaration of ours that
 * points at nothing shipped, or at a type the project's BullMQ or ioredis
 * lacks, makes a type `any`, which the `@ts-expect-error` lines and the
 * annotations of the files checked catch. With `outDir`, the JavaScript is
 * written there.
 */
export async function typecheck(
  dir: string,
  options: { outDir?: string } = {},
): Promise<{ code: number; output: string }> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        ...(options.outDir ? { outDir: options.outDir } : { noEmit: true }),
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      include: ['*.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir }).then(
    () => ({ code: 0, output: '' }),
    (err: { code: number; stdout: string }) => ({ code: err.code, output: err.stdout }),
  );
}
