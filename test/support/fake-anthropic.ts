/**
 * A loopback HTTP server that speaks the Messages API, for testing the real
 * Anthropic SDK. Each test gives a handler that decides every reply; the
 * default one reads verdict markers from the text (`@@cbrn@0.9@@`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    tools?: Array<{ name: string; input_schema: unknown }>;
    tool_choice?: { type: string; name?: string };
    messages: Array<{ role: string; content: string }>;
  };
  /** The user message. */
  text: string;
  headers: IncomingMessage['headers'];
  at: number;
}

export type Reply =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** Sent as JSON (`content-type: application/json` unless `headers` say otherwise). */
      body?: unknown;
      /** Sent as it is instead of `body`: an answer that is not JSON (an HTML page, an event stream). */
      raw?: string;
      delayMs?: number;
    }
  | 'hang'
  | 'destroy';

export type Handler = (req: FakeRequest, index: number) => Reply | Promise<Reply>;

export interface FakeAnthropic {
  url: string;
  requests: FakeRequest[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

let ids = 0;

/** A usage block as the Messages API sends it (the cache fields are 0 when the prompt cache is not used). */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function usage(input: number, output: number, cache: { read?: number; write?: number } = {}): Usage {
  return {
    input_tokens: input,
    cache_creation_input_tokens: cache.write ?? 0,
    cache_read_input_tokens: cache.read ?? 0,
    output_tokens: output,
  };
}

export function toolUse(input: unknown, model = 'claude-haiku-4-5-20251001', tokens = usage(100, 20)): Reply {
  ids++;
  return {
    status: 200,
    body: {
      id: `msg_${ids}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'tool_use', id: `toolu_${ids}`, name: 'record_safety_assessment', input }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: tokens,
    },
  };
}

/**
 * A whole message as the Messages API sends it, with the given content blocks
 * and stop reason: for answers that break the request's contract (two tool
 * calls, a stop reason other than `tool_use`).
 */
export function message(content: unknown[], options: { stopReason?: string | null; tokens?: Usage } = {}): Reply {
  ids++;
  return {
    status: 200,
    body: {
      id: `msg_${ids}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5-20251001',
      content,
      stop_reason: options.stopReason === undefined ? 'tool_use' : options.stopReason,
      stop_sequence: null,
      usage: options.tokens ?? usage(100, 20),
    },
  };
}

/** A `record_safety_assessment` call block, for `message`. */
export function assessmentCall(categories: string[], confidence: number, rationale = 'test rationale') {
  ids++;
  return {
    type: 'tool_use',
    id: `toolu_${ids}`,
    name: 'record_safety_assessment',
    input: { categories, confidence, rationale },
  };
}

/** A `record_claim_support` answer: the claim-support judge's forced tool call. */
export function claimSupport(input: unknown, tokens = usage(300, 30)): Reply {
  return message([{ type: 'tool_use', id: `toolu_claim_${++ids}`, name: 'record_claim_support', input }], { tokens });
}

/** The content of the block labelled `label` (TEXT) or with id `label` (UNTRUSTED_SOURCE) in a request's text. */
export function quotedBlock(text: string, label: string): string | undefined {
  const m = new RegExp(`<(TEXT label|UNTRUSTED_SOURCE id)="${label}" hash="[0-9a-f]+">\\n([\\s\\S]*?)\\n</`).exec(text);
  return m?.[2];
}

export function assessment(categories: string[], confidence: number, rationale = 'test rationale'): Reply {
  return toolUse({ categories, confidence, rationale });
}

export function refusal(tokens = usage(100, 5)): Reply {
  ids++;
  return {
    status: 200,
    body: {
      id: `msg_${ids}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5-20251001',
      content: [{ type: 'text', text: 'I cannot help with that.' }],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: tokens,
    },
  };
}

export function apiError(status: number, type: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { type: 'error', error: { type, message: `${type} (fake)` } } };
}

/** Reads `@@category@confidence@@` markers from the text; none means benign. */
export const markerHandler: Handler = (req) => {
  const found = [...req.text.matchAll(/@@([a-z_]+)@([0-9.]+)@@/g)];
  if (found.length === 0) return assessment(['none'], 0.97, 'ordinary science');
  return assessment(
    [...new Set(found.map((m) => m[1]!))],
    Math.max(...found.map((m) => Number(m[2]))),
    'marked in the text',
  );
};

export async function startFakeAnthropic(handler: Handler = markerHandler): Promise<FakeAnthropic> {
  let current = handler;
  const requests: FakeRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
          res.writeHead(404).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequest['body'];
        const fake: FakeRequest = {
          body,
          text: body.messages.at(-1)?.content ?? '',
          headers: req.headers,
          at: Date.now(),
        };
        requests.push(fake);
        const reply = await current(fake, requests.length - 1);
        if (reply === 'hang') {
          hanging.add(res);
          return;
        }
        if (reply === 'destroy') {
          req.socket.destroy();
          return;
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(h) {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
