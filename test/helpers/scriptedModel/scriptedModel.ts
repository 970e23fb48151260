/**
 * A model endpoint on loopback that follows a script, for the real agent CLIs: it speaks the
 * Anthropic Messages API (Claude Code), the OpenAI Responses API (Codex) and the Gemini API
 * (Gemini CLI) on one port, answers the agent loop's requests with the script's next action and
 * the clients' side requests (titles, routing, token counts) with something sensible, and records
 * every request, so a test can assert on what the model was shown: the tools listed, the MCP
 * server's instructions, the tool results as the client passed them on.
 *
 *   const model = await startScriptedModel([{ callTool: 'task_list' }, { say: 'done' }]);
 *   // run the CLI with agentCliEnv(…, model.url) …
 *   model.conversations().at(-1)?.lastResult('task_list')?.text
 */
import * as http from 'node:http';
import { after } from 'node:test';
import * as zlib from 'node:zlib';
import {
  anthropicConversation,
  anthropicCountTokens,
  anthropicReply,
  anthropicSideTurn,
  isMainAnthropicRequest,
} from './anthropicMessages';
import { planners } from './clientTools';
import type { ClientKind, Conversation } from './conversation';
import { geminiConversation, geminiCountTokens, geminiReply, geminiSideTurn, isMainGeminiRequest } from './geminiApi';
import { isMainResponsesRequest, responsesConversation, responsesReply, responsesSideTurn } from './openaiResponses';
import type { ModelTurn, ScriptEvent, Step } from './script';
import { ScriptRunner } from './script';
import type { DialectReply, ModelRequest } from './wire';
import { jsonReply } from './wire';

export interface RecordedRequest extends ModelRequest {
  /** Which client's API it used (null: a path none of them serves). */
  client: ClientKind | null;
  /** `main`: the agent loop (answered from the script); `side`: anything else the client asked. */
  kind: 'main' | 'side' | 'count' | 'unknown';
  /** What the model was shown (main and side requests). */
  conversation?: Conversation;
  /** What it answered. */
  reply?: ModelTurn;
  status: number;
}

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>`: the base URL to give the client. */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Every answer taken from the script. */
  readonly events: ScriptEvent[];
  /** Steps that could not be done; a test should assert this is empty. */
  readonly errors: string[];
  /** Whether the client got every step. */
  readonly finished: boolean;
  /** The agent loop's requests (side requests left out). */
  mainRequests(): RecordedRequest[];
  /** What the model was shown at each step of the agent loop. */
  conversations(): Conversation[];
  close(): Promise<void>;
}

const open = new Set<ScriptedModel>();
if (process.env.NODE_TEST_CONTEXT) {
  after(async () => {
    await Promise.all([...open].map((m) => m.close()));
  });
}

function decode(buffer: Buffer, encoding: string | undefined): string {
  if (encoding === 'gzip') return zlib.gunzipSync(buffer).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(buffer).toString('utf8');
  if (encoding === 'br') return zlib.brotliDecompressSync(buffer).toString('utf8');
  return buffer.toString('utf8');
}

function readRequest(req: http.IncomingMessage): Promise<ModelRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const raw = decode(Buffer.concat(chunks), req.headers['content-encoding'] as string | undefined);
      let body: Record<string, unknown> = {};
      try {
        const parsed = raw ? (JSON.parse(raw) as unknown) : {};
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        // Not JSON: recorded as it came.
      }
      const url = req.url ?? '/';
      resolve({
        method: req.method ?? 'GET',
        url,
        pathname: new URL(url, 'http://127.0.0.1').pathname,
        headers: req.headers,
        raw,
        body,
      });
    });
  });
}

/** Starts the endpoint on 127.0.0.1 (a free port) with the steps to follow. */
export async function startScriptedModel(steps: readonly Step[]): Promise<ScriptedModel> {
  const runner = new ScriptRunner(steps);
  const requests: RecordedRequest[] = [];
  let messageIds = 0;

  function answer(request: ModelRequest): {
    record: Omit<RecordedRequest, keyof ModelRequest | 'status'>;
    reply: DialectReply;
  } {
    const { method, pathname, body } = request;
    const id = `scripted_${++messageIds}`;
    if (method === 'POST' && pathname === '/v1/messages/count_tokens')
      return { record: { client: 'claude', kind: 'count' }, reply: anthropicCountTokens(request) };
    // Claude Code's reachability check (sent unless CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set).
    if (method === 'GET' && pathname === '/api/hello')
      return { record: { client: 'claude', kind: 'side' }, reply: jsonReply({}) };
    if (method === 'POST' && pathname === '/v1/messages') {
      const conversation = anthropicConversation(body);
      const main = isMainAnthropicRequest(body);
      const turn = main ? runner.next(conversation, planners.claude, 'toolu_scripted_') : anthropicSideTurn(body);
      return {
        record: { client: 'claude', kind: main ? 'main' : 'side', conversation, reply: turn },
        reply: anthropicReply(request, turn, `msg_${id}`),
      };
    }
    if (method === 'POST' && /\/responses$/.test(pathname)) {
      const conversation = responsesConversation(body);
      const main = isMainResponsesRequest(body);
      const turn = main ? runner.next(conversation, planners.codex, 'call_scripted_') : responsesSideTurn(body);
      return {
        record: { client: 'codex', kind: main ? 'main' : 'side', conversation, reply: turn },
        reply: responsesReply(request, turn, `resp_${id}`),
      };
    }
    const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(pathname);
    if (method === 'POST' && gemini) {
      if (gemini[2] === 'countTokens')
        return { record: { client: 'gemini', kind: 'count' }, reply: geminiCountTokens(request) };
      const conversation = geminiConversation(body);
      const main = isMainGeminiRequest(body);
      const turn = main ? runner.next(conversation, planners.gemini, 'gemini_scripted_') : geminiSideTurn(body);
      return {
        record: { client: 'gemini', kind: main ? 'main' : 'side', conversation, reply: turn },
        reply: geminiReply(request, gemini[1], gemini[2] === 'streamGenerateContent', turn),
      };
    }
    return {
      record: { client: null, kind: 'unknown' },
      reply: jsonReply({ error: { message: `the scripted model does not serve ${method} ${pathname}` } }, 404),
    };
  }

  const server = http.createServer((req, res) => {
    readRequest(req).then(
      (request) => {
        let outcome: ReturnType<typeof answer>;
        try {
          outcome = answer(request);
        } catch (error) {
          // A bug of the endpoint itself: the test must see it, the client a clear refusal (400: not retried).
          const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
          runner.errors.push(`endpoint error on ${request.method} ${request.url}: ${message}`);
          outcome = { record: { client: null, kind: 'unknown' }, reply: jsonReply({ error: { message } }, 400) };
        }
        requests.push({ ...request, ...outcome.record, status: outcome.reply.status });
        res.writeHead(outcome.reply.status, outcome.reply.headers);
        for (const chunk of outcome.reply.chunks) res.write(chunk);
        res.end();
      },
      () => res.destroy(),
    );
  });
  // Clients keep connections alive; closing must not wait for them.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  let closed: Promise<void> | undefined;
  const model: ScriptedModel = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    events: runner.events,
    errors: runner.errors,
    get finished() {
      return runner.finished;
    },
    mainRequests: () => requests.filter((r) => r.kind === 'main'),
    conversations: () => requests.flatMap((r) => (r.kind === 'main' && r.conversation ? [r.conversation] : [])),
    close() {
      open.delete(model);
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
  open.add(model);
  return model;
}
