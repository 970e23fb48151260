// One HTTP server for many agents against one stdio server per agent (issue 28), measured the way
// users run them, baselines in the same run:
//   memory    RSS of one `mcp serve --http` with N clients connected (each listed the tools and
//             wrote once) against the RSS of one stdio server with its one client, and against N
//             of them (what N agents cost today). Target: the HTTP server ≤ 1.5× one stdio server.
//   latency   tool-call p50/p95 over HTTP on loopback against stdio, the same SDK v2 client
//             speaking 2026-07-28 on both, a read (task_get) and a write (task_create). Target:
//             HTTP p50 ≤ 1.5× stdio.
//   floor     the same client against a server that answers at once with the real server's
//             recorded answers (lib/cannedMcp.mjs), on each transport: what the client and the
//             transport take under any server. The real call minus its floor is what the ledger's
//             server adds on each transport; the floor of HTTP plus stdio's own time is the best
//             HTTP p50 any server could reach with this client.
// Usage: npm run bench -- --only httpServer   (node --import tsx bench/httpServer.bench.ts [--clients 20] [--runs 200])
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cliPath } from '../test/helpers/mcpClient';
import { cliJson } from '../test/helpers/cli';
import { modernRequest, startHttpServer } from '../test/helpers/httpServer';
import { tempRepo } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';
import { vmRss } from './peers/session';

const arg = (name: string, fallback: string): string =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const clients = Number(arg('--clients', '20'));
const runs = Number(arg('--runs', '200'));
const MiB = 1024 * 1024;
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

function modernClient(): Client {
  return new Client({ name: 'agent-ledger-http-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
}

async function httpClient(url: string, token: string): Promise<Client> {
  const client = modernClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

async function stdioClient(workspace: string): Promise<{ client: Client; pid: () => number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', 'serve', '--workspace', workspace],
    stderr: 'ignore',
  });
  const client = modernClient();
  await client.connect(transport);
  return { client, pid: () => transport.pid ?? 0 };
}

/** The real server's answers to `server/discover` and to one `task_get`, to replay from a server that does no work. */
async function recordAnswers(url: string, token: string, id: number): Promise<Record<string, unknown>> {
  const ask = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    const { body, headers } = modernRequest(method, params, { token, client: 'agent-ledger-http-bench' });
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    return ((await response.json()) as { result: unknown }).result;
  };
  return {
    'server/discover': await ask('server/discover', {}),
    'tools/call': await ask('tools/call', { name: 'task_get', arguments: { id } }),
  };
}

/** A client of lib/cannedMcp.mjs (a server that answers at once) on `transport`. */
async function cannedClient(
  answersFile: string,
  transport: 'stdio' | 'http',
): Promise<{ client: Client; stop(): void }> {
  const script = path.join(__dirname, 'lib', 'cannedMcp.mjs');
  const client = modernClient();
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [script, answersFile, 'stdio'] }));
    return { client, stop: () => void client.close() };
  }
  const child = spawn(process.execPath, [script, answersFile, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (b: Buffer) => resolve(String(b).trim())),
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    client,
    stop: () => {
      void client.close();
      child.kill();
    },
  };
}

/** What an agent does first: list the tools, write once. */
async function firstSteps(client: Client, title: string): Promise<number> {
  await client.listTools();
  const r = (await client.callTool({ name: 'task_create', arguments: { title } })) as {
    structuredContent?: { id: number };
  };
  return r.structuredContent!.id;
}

async function main(): Promise<void> {
  const load = loadavg()[0];
  const repo = tempRepo();
  const token = cliJson<{ secret: string }>([
    'token',
    'create',
    'person',
    '--name',
    'bench',
    '--workspace',
    repo,
  ]).secret;

  // Memory: N clients on one HTTP server.
  const http = await startHttpServer(repo);
  const onHttp = await Promise.all(Array.from({ length: clients }, () => httpClient(http.url, token)));
  await Promise.all(onHttp.map((c, i) => firstSteps(c, `http client ${i}`)));
  await sleep(1500);
  const httpRss = vmRss(http.pid);

  // … and N stdio servers, one per client (started one after the other, as agents start).
  const onStdio: { client: Client; pid: () => number }[] = [];
  for (let i = 0; i < clients; i++) {
    const s = await stdioClient(repo);
    await firstSteps(s.client, `stdio client ${i}`);
    onStdio.push(s);
  }
  await sleep(1500);
  const stdioRss = onStdio.map((s) => vmRss(s.pid())).filter((n) => n > 0);
  const oneStdio = percentile(stdioRss, 50);
  const allStdio = stdioRss.reduce((a, b) => a + b, 0);

  // Latency: one client of each kind, a read and a write, interleaved in rounds.
  const [h] = onHttp;
  const [s] = onStdio;
  const id = await firstSteps(h, 'the task read by the latency runs');
  const answersFile = path.join(repo, '.agent-ledger', 'bench-answers.json');
  writeFileSync(answersFile, JSON.stringify(await recordAnswers(http.url, token, id)));
  const floorStdio = await cannedClient(answersFile, 'stdio');
  const floorHttp = await cannedClient(answersFile, 'http');
  const read = (c: Client) => () => c.callTool({ name: 'task_get', arguments: { id } });
  const write = (c: Client) => (i: number) => c.callTool({ name: 'task_create', arguments: { title: `latency ${i}` } });
  const samples = {
    httpRead: [] as number[],
    stdioRead: [] as number[],
    httpWrite: [] as number[],
    stdioWrite: [] as number[],
    httpFloor: [] as number[],
    stdioFloor: [] as number[],
  };
  for (let round = 0; round < 4; round++) {
    const n = Math.ceil(runs / 4);
    samples.httpRead.push(...(await measure(n, read(h))));
    samples.stdioRead.push(...(await measure(n, read(s.client))));
    samples.httpWrite.push(...(await measure(n, write(h))));
    samples.stdioWrite.push(...(await measure(n, write(s.client))));
    samples.httpFloor.push(...(await measure(n, read(floorHttp.client))));
    samples.stdioFloor.push(...(await measure(n, read(floorStdio.client))));
  }
  floorHttp.stop();
  floorStdio.stop();
  const p = (xs: number[], q: number) => percentile(xs, q);
  const [readStdio, readHttp] = [p(samples.stdioRead, 50), p(samples.httpRead, 50)];
  const [stdioFloor, httpFloor] = [p(samples.stdioFloor, 50), p(samples.httpFloor, 50)];
  const bestHttp = httpFloor + (readStdio - stdioFloor);

  await Promise.all([...onHttp.map((c) => c.close()), ...onStdio.map((x) => x.client.close())]);
  await http.stop();

  printTable(
    `One HTTP server for ${clients} agents vs a stdio server each (load average ${load.toFixed(1)} on ${cpus().length} cores${load > 4 ? ': under load' : ''}; ${runs} calls each, p50 / p95)`,
    ['figure', 'stdio', 'HTTP', 'ratio', 'target', 'verdict'],
    [
      [
        `RSS: one HTTP server with ${clients} clients vs one stdio server with its client (MiB)`,
        (oneStdio / MiB).toFixed(1),
        (httpRss / MiB).toFixed(1),
        ratio(httpRss, oneStdio),
        '≤ 1.5×',
        verdict(httpRss <= 1.5 * oneStdio),
      ],
      [
        `RSS: ${clients} stdio servers (what ${clients} agents cost with stdio) (MiB)`,
        (allStdio / MiB).toFixed(1),
        (httpRss / MiB).toFixed(1),
        ratio(httpRss, allStdio),
        '-',
        '-',
      ],
      [
        'task_get (read) p50 / p95 (ms)',
        `${ms(p(samples.stdioRead, 50))} / ${ms(p(samples.stdioRead, 95))}`,
        `${ms(p(samples.httpRead, 50))} / ${ms(p(samples.httpRead, 95))}`,
        ratio(p(samples.httpRead, 50), p(samples.stdioRead, 50)),
        '≤ 1.5×',
        verdict(p(samples.httpRead, 50) <= 1.5 * p(samples.stdioRead, 50)),
      ],
      [
        'task_create (write) p50 / p95 (ms)',
        `${ms(p(samples.stdioWrite, 50))} / ${ms(p(samples.stdioWrite, 95))}`,
        `${ms(p(samples.httpWrite, 50))} / ${ms(p(samples.httpWrite, 95))}`,
        ratio(p(samples.httpWrite, 50), p(samples.stdioWrite, 50)),
        '≤ 1.5×',
        verdict(p(samples.httpWrite, 50) <= 1.5 * p(samples.stdioWrite, 50)),
      ],
      [
        'floor: task_get answered at once by a server that does no work, p50 (ms)',
        ms(stdioFloor),
        ms(httpFloor),
        ratio(httpFloor, stdioFloor),
        '-',
        '-',
      ],
      [
        "task_get minus its floor: the ledger server's own time, p50 (ms)",
        ms(readStdio - stdioFloor),
        ms(readHttp - httpFloor),
        ratio(readHttp - httpFloor, readStdio - stdioFloor),
        '-',
        '-',
      ],
      [
        "best task_get over HTTP with this client: HTTP's floor + stdio's own time (ms)",
        ms(readStdio),
        ms(bestHttp),
        ratio(bestHttp, readStdio),
        '-',
        '-',
      ],
    ],
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
