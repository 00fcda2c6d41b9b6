/** Small I/O helpers shared by the CLI commands. */
import { readFile } from 'node:fs/promises';

/** Reads all of standard input as UTF-8. */
export async function readStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a file, or standard input when the path is `-` or missing. */
export async function readInput(path: string | undefined): Promise<string> {
  if (path === undefined || path === '-') return readStdin();
  return readFile(path, 'utf8');
}
