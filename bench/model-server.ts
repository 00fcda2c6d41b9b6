/**
 * A loopback server that speaks the Messages API and answers every request
 * with the same assessment, after an optional delay: the classifier of the
 * pipeline benchmark. It runs in its own process, so its work does not share
 * the benchmarked process's event loop, and it keeps only a request count.
 *
 * Its `usage` block is an estimate, as no tokenizer is at hand offline: the
 * characters of what it was sent (the system prompt, the tools as JSON, the
 * messages) and of the tool input it answers, over CHARS_PER_TOKEN. The
 * Messages API counts with the model's tokenizer and adds its own tool-use
 * system prompt, so real counts differ; the service's metric reports those.
 *
 *   node --import tsx bench/model-server.ts [--delay MS]
 *
 * Prints `{"port": N}` on its first line; `GET /count` answers the number of
 * requests served.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { TOOL_NAME } from '../src/safety/classification/prompt.js';
import { CHARS_PER_TOKEN } from './support.js';

const { values } = parseArgs({ options: { delay: { type: 'string', default: '0' } } });
const delayMs = Number(values.delay);

const ANSWER = { categories: ['none'], confidence: 0.97, rationale: 'ordinary science' };

interface Request {
  system?: string;
  tools?: unknown[];
  messages?: Array<{ content: unknown }>;
}

/** Characters of a request as the model reads them: system prompt, tool definitions, messages. */
function requestChars(body: Request): number {
  const text = (c: unknown) => (typeof c === 'string' ? c.length : JSON.stringify(c ?? '').length);
  return (
    (body.system?.length ?? 0) +
    (body.tools ? JSON.stringify(body.tools).length : 0) +
    (body.messages ?? []).reduce((n, m) => n + text(m.content), 0)
  );
}

let served = 0;
const reply = (id: number, inputChars: number) =>
  JSON.stringify({
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5-20251001',
    content: [
      {
        type: 'tool_use',
        id: `toolu_${id}`,
        name: TOOL_NAME,
        input: ANSWER,
      },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: {
      input_tokens: Math.ceil(inputChars / CHARS_PER_TOKEN),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: Math.ceil(JSON.stringify(ANSWER).length / CHARS_PER_TOKEN),
    },
  });

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served }));
    return;
  }
  // Read the whole request, as a real server would, before answering.
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const id = ++served;
    let chars = 0;
    try {
      chars = requestChars(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Request);
    } catch {
      // Not JSON: an answer all the same, with no input counted.
    }
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(reply(id, chars));
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
