// A local fake of both providers' streaming endpoints: OpenAI-compatible `/v1/chat/completions` and Anthropic
// `/v1/messages`. Each request takes the next scripted reply; a stream can hold any token until the test releases it
// (`beforeToken`), so tests prove ordering without timing. It also records requests and closed connections.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | {
      kind: 'stream';
      tokens: string[];
      usage?: { prompt: number; completion: number };
      model?: string;
      /** Awaited before token i is written: hold a token until the test lets it go. */
      beforeToken?: (index: number) => Promise<void>;
      /** Leave out the closing events (finish_reason / message_stop): the connection just ends. */
      truncate?: boolean;
      /** Send no usage at all. */
      omitUsage?: boolean;
    }
  | { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** A 200 event stream whose data is not JSON. */
  | { kind: 'malformed' }
  /** Headers and nothing else, until the client gives up. */
  | { kind: 'hang' }
  /** Tokens, then the socket is destroyed mid-stream. */
  | { kind: 'drop-after'; tokens: string[] }
  /** The model asks for tools: each call's arguments streamed in two pieces, in either wire format. */
  | ToolCallsReply;

export interface ToolCallsReply {
  kind: 'tool_calls';
  calls: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
  /** Text the model writes before its calls (not the final answer). */
  text?: string;
  usage?: { prompt: number; completion: number };
}

/** The tool calls of a reply with their ids filled in as the fake sends them. */
export function toolCallIds(reply: ToolCallsReply): string[] {
  return reply.calls.map((call, index) => call.id ?? `call_${index}`);
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeLlmServer {
  url: string;
  /** Base URL for the openai provider (`…/v1`); the anthropic provider takes `url` itself. */
  openAiBaseUrl: string;
  requests: RecordedRequest[];
  /** Requests whose connection the client closed before the reply was complete. */
  closedEarly: number;
  /** Resolves when a client next closes a connection before its reply was complete. */
  nextEarlyClose(): Promise<void>;
  reply(...replies: Reply[]): void;
  /** Replies for requests naming this model, taken before the shared queue (for concurrent calls). */
  replyForModel(model: string, ...replies: Reply[]): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: Reply = { kind: 'stream', tokens: ['Hello', ' world'], usage: { prompt: 10, completion: 2 } };

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      try {
        resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function startEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

type Writer = (text: string) => void;

async function streamOpenAi(reply: Extract<Reply, { kind: 'stream' }>, model: string, write: Writer, gone: () => boolean) {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: reply.model ?? model };
  write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`);
  for (const [i, token] of reply.tokens.entries()) {
    await reply.beforeToken?.(i);
    if (gone()) return;
    write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: token }, finish_reason: null }] })}\n\n`);
  }
  if (reply.truncate) return;
  write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  if (!reply.omitUsage) {
    const usage = reply.usage ?? { prompt: 0, completion: 0 };
    const counts = { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion };
    write(`data: ${JSON.stringify({ ...base, choices: [], usage: counts })}\n\n`);
  }
  write('data: [DONE]\n\n');
}

async function streamAnthropic(reply: Extract<Reply, { kind: 'stream' }>, model: string, write: Writer, gone: () => boolean) {
  const event = (type: string, data: Record<string, unknown>) => write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = reply.usage ?? { prompt: 0, completion: 0 };
  event('message_start', {
    message: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: reply.model ?? model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: reply.omitUsage ? undefined : { input_tokens: usage.prompt, output_tokens: 1 },
    },
  });
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  write('event: ping\ndata: {"type": "ping"}\n\n');
  for (const [i, token] of reply.tokens.entries()) {
    await reply.beforeToken?.(i);
    if (gone()) return;
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: token } });
  }
  if (reply.truncate) return;
  event('content_block_stop', { index: 0 });
  event('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    ...(reply.omitUsage ? {} : { usage: { output_tokens: usage.completion } }),
  });
  event('message_stop', {});
}

function argumentPieces(args: string | Record<string, unknown>): [string, string] {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

function streamOpenAiToolCalls(reply: ToolCallsReply, model: string, write: Writer) {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  chunk({ role: 'assistant', content: reply.text ?? null });
  const ids = toolCallIds(reply);
  reply.calls.forEach((call, index) => {
    const [first, rest] = argumentPieces(call.arguments);
    chunk({ tool_calls: [{ index, id: ids[index], type: 'function', function: { name: call.name, arguments: first } }] });
    chunk({ tool_calls: [{ index, function: { arguments: rest } }] });
  });
  chunk({}, 'tool_calls');
  const usage = reply.usage ?? { prompt: 0, completion: 0 };
  const counts = { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion };
  write(`data: ${JSON.stringify({ ...base, choices: [], usage: counts })}\n\n`);
  write('data: [DONE]\n\n');
}

function streamAnthropicToolCalls(reply: ToolCallsReply, model: string, write: Writer) {
  const event = (type: string, data: Record<string, unknown>) => write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = reply.usage ?? { prompt: 0, completion: 0 };
  event('message_start', {
    message: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.prompt, output_tokens: 1 },
    },
  });
  let index = 0;
  if (reply.text) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    event('content_block_delta', { index, delta: { type: 'text_delta', text: reply.text } });
    event('content_block_stop', { index });
    index++;
  }
  const ids = toolCallIds(reply);
  reply.calls.forEach((call, i) => {
    event('content_block_start', { index, content_block: { type: 'tool_use', id: ids[i], name: call.name, input: {} } });
    for (const piece of argumentPieces(call.arguments)) {
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    event('content_block_stop', { index });
    index++;
  });
  event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: usage.completion } });
  event('message_stop', {});
}

export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: Reply[] = [];
  const byModel = new Map<string, Reply[]>();
  const requests: RecordedRequest[] = [];
  let earlyCloseWaiters: Array<() => void> = [];
  const state = { closedEarly: 0 };

  const server = createServer(async (req, res) => {
    let finished = false;
    let gone = false;
    res.on('close', () => {
      gone = true;
      if (!finished) {
        state.closedEarly++;
        const waiters = earlyCloseWaiters;
        earlyCloseWaiters = [];
        for (const wake of waiters) wake();
      }
    });
    const body = await readBody(req);
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, body });
    const model = typeof body.model === 'string' ? body.model : 'unknown';
    const reply = byModel.get(model)?.shift() ?? queue.shift() ?? DEFAULT_REPLY;
    const isOpenAi = path.endsWith('/chat/completions');
    if (!isOpenAi && !path.endsWith('/messages')) {
      finished = true;
      res.writeHead(404).end();
      return;
    }
    const write: Writer = (text) => {
      if (!gone) res.write(text);
    };
    switch (reply.kind) {
      case 'error': {
        finished = true;
        const errorBody =
          reply.body ??
          (isOpenAi
            ? { error: { message: `fake error ${reply.status}`, type: 'fake', code: null } }
            : { type: 'error', error: { type: 'fake_error', message: `fake error ${reply.status}` } });
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(errorBody));
        return;
      }
      case 'malformed':
        finished = true;
        startEventStream(res);
        res.end(isOpenAi ? 'data: {"choices": [{"delta": {"content": "Hi"\n\n' : 'event: message_start\ndata: {not json\n\n');
        return;
      case 'hang':
        startEventStream(res);
        return;
      case 'drop-after':
        startEventStream(res);
        for (const token of reply.tokens) {
          write(
            isOpenAi
              ? `data: ${JSON.stringify({ model, choices: [{ index: 0, delta: { content: token }, finish_reason: null }] })}\n\n`
              : `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } })}\n\n`,
          );
        }
        finished = true;
        setImmediate(() => res.socket?.destroy());
        return;
      case 'tool_calls':
        startEventStream(res);
        (isOpenAi ? streamOpenAiToolCalls : streamAnthropicToolCalls)(reply, model, write);
        finished = true;
        res.end();
        return;
      case 'stream':
        startEventStream(res);
        await (isOpenAi ? streamOpenAi : streamAnthropic)(reply, model, write, () => gone);
        finished = true;
        if (!gone) res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openAiBaseUrl: `${url}/v1`,
    requests,
    get closedEarly() {
      return state.closedEarly;
    },
    nextEarlyClose: () => new Promise<void>((resolve) => earlyCloseWaiters.push(resolve)),
    reply: (...replies) => queue.push(...replies),
    replyForModel: (model, ...replies) => byModel.set(model, [...(byModel.get(model) ?? []), ...replies]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A latch a test opens when it is ready for the fake server to go on. */
export function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
