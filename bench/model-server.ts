/**
 * A loopback server that speaks the Messages API and answers every request
 * with the same assessment, after an optional delay: the classifier of the
 * pipeline benchmark. It runs in its own process, so its work does not share
 * the benchmarked process's event loop, and it keeps only a request count.
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

const { values } = parseArgs({ options: { delay: { type: 'string', default: '0' } } });
const delayMs = Number(values.delay);

let served = 0;
const reply = (id: number) =>
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
        input: { categories: ['none'], confidence: 0.97, rationale: 'ordinary science' },
      },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 400, output_tokens: 30 },
  });

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served }));
    return;
  }
  // Read the whole request, as a real server would, before answering.
  req.resume();
  req.on('end', () => {
    const id = ++served;
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(reply(id));
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
