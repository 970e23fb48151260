// MCP Apps (the io.modelcontextprotocol/ui extension) as a chat client that renders them sees
// them: the checkpoint's page listed and served as text/html;profile=mcp-app only to a client
// that declared the extension, its Approve in a sandboxed frame (the official AppBridge in
// headless Chromium) reaching the server as the person's decision — and refused when the
// server holds an agent's credentials, or when the model calls the tool without the page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { BrowserSession, screenshotsDir } from './harness/browser';
import { chromiumPath } from './harness/paths';
import { cliPath, connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';
import { drive, start, twoTasks } from '../mcp/pipelineDriver';
import type { Action } from '../mcp/pipelineDriver';

const uiExtension = 'io.modelcontextprotocol/ui';
const mime = 'text/html;profile=mcp-app';
const shots = path.join(screenshotsDir, 'mcp-apps');

/** A chat client that renders MCP Apps: the real SDK client declaring the extension. */
async function appClient(repo: string, env: NodeJS.ProcessEnv = ledgerEnv(repo)): Promise<Client> {
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    { capabilities: { extensions: { [uiExtension]: { mimeTypes: [mime] } } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', 'serve', '--workspace', repo],
      env: env as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Drives a pipeline to its first checkpoint; resolves with the workspace and the checkpoint action. */
async function toCheckpoint(agent: LedgerClient, repo: string): Promise<{ workspace: string; action: Action }> {
  const { workspace } = await start(agent, 'Fix the typo in the README --nopr', {
    effort: 'S',
    use_current_branch: false,
  });
  let action: Action | undefined;
  await drive(agent, repo, workspace, {
    tasksMd: twoTasks,
    onAction: async (a: Action) => {
      if (a.type !== 'checkpoint') return;
      action = a;
      return 'stop';
    },
  });
  assert.ok(action, 'the flow reached a checkpoint');
  return { workspace, action };
}

describe('MCP Apps', { skip: fs.existsSync(chromiumPath) ? false : `no ${chromiumPath}` }, () => {
  let repo: string;
  let agent: LedgerClient;
  let host: Client;
  let hostHtml: string;

  before(async () => {
    repo = tempRepo({ 'README.md': '# demo\n', 'src/http.ts': 'export function get() {}\n' });
    agent = await connect(repo);
    host = await appClient(repo);
    const out = tempDir('agent-ledger-apps-host-');
    await esbuild.build({
      entryPoints: [path.join(__dirname, 'mcpApps', 'hostPage.mts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      outfile: path.join(out, 'host.js'),
      logLevel: 'warning',
    });
    const script = fs.readFileSync(path.join(out, 'host.js'), 'utf8').replace(/<\/script/gi, '<\\/script');
    hostHtml = `<!DOCTYPE html><html><body><script>${script}</script></body></html>`;
  });

  after(async () => {
    await host?.close();
    await agent?.close();
  });

  it('a client without the extension gets the tools as text: no _meta.ui, no pages, no page-only tools', async () => {
    const tools = (await agent.client.listTools()).tools;
    assert.ok(tools.some((t) => t.name === 'pipeline_next_action'));
    assert.deepEqual(
      tools.filter((t) => (t._meta as { ui?: unknown } | undefined)?.ui !== undefined).map((t) => t.name),
      [],
    );
    assert.ok(!tools.some((t) => t.name.startsWith('ui_')));
    const resources = (await agent.client.listResources()).resources;
    assert.ok(!resources.some((r) => r.uri.startsWith('ui://')));
    await assert.rejects(agent.client.readResource({ uri: 'ui://agent-ledger/checkpoint.html' }));
    // Not a tool of this client: an unknown tool is a protocol error (-32602).
    await assert.rejects(
      agent.client.callTool({
        name: 'ui_decide_checkpoint',
        arguments: { workspace: 'x', checkpoint: 'y', decision: 'approve', ticket: 'z' },
      }),
      /-32602|ui_decide_checkpoint/,
    );
  });

  it('a client that declares the extension gets the pages as text/html;profile=mcp-app and _meta.ui on the tools', async () => {
    const tools = (await host.listTools()).tools;
    const ui = (name: string) =>
      (
        tools.find((t) => t.name === name)?._meta as
          { ui?: { resourceUri?: string; visibility?: string[] } } | undefined
      )?.ui;
    assert.equal(ui('pipeline_next_action')?.resourceUri, 'ui://agent-ledger/checkpoint.html');
    assert.equal(ui('complete_task')?.resourceUri, 'ui://agent-ledger/task-result.html');
    assert.deepEqual(
      ui('ui_decide_checkpoint')?.visibility,
      ['app'],
      'the decision tool is for the page, not the model',
    );
    const listed = (await host.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
    assert.deepEqual(
      listed.map((r) => [r.uri, r.mimeType]),
      [
        ['ui://agent-ledger/checkpoint.html', mime],
        ['ui://agent-ledger/task-result.html', mime],
      ],
    );
    const read = await host.readResource({ uri: 'ui://agent-ledger/checkpoint.html' });
    const content = read.contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: object } } };
    assert.equal(content.mimeType, mime);
    assert.match(content.text, /^<!DOCTYPE html>/);
    assert.deepEqual(content._meta?.ui?.csp, {}, 'the page loads nothing from anywhere');
  });

  it("Approve in the page's frame reaches the server as the person's decision, and the waiting agent goes on", async () => {
    const { workspace } = await toCheckpoint(agent, repo);
    const page = await openHost();
    try {
      // The agent's checkpoint call, as the chat client got it; the page comes with it.
      const result = await host.callTool({ name: 'pipeline_next_action', arguments: { workspace } });
      const waiting = agent.call<Action>('pipeline_next_action', { workspace, wait_ms: 45_000 });
      await showCheckpoint(page, workspace, result);
      const frame = page.frameLocator('[data-testid=app-frame]');
      await frame.locator('[data-testid=decision]').waitFor({ timeout: 20_000 });
      await frame.locator('#decision-comment').fill('From the chat');
      fs.mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: path.join(shots, 'checkpoint-app.png') });
      await frame.locator('button[data-decision=approve]').click();
      const next = await waiting;
      assert.notEqual(next.type, 'checkpoint', `the agent goes on: ${next.type}`);
      await frame.locator('[data-testid=decision-result]').waitFor({ timeout: 10_000 });
      const status = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'pipeline', 'status', workspace, '--workspace', repo, '--json'], {
          encoding: 'utf8',
          env: ledgerEnv(repo),
        }),
      ) as { decisions: { decision: string; via: string; decided_by: string; comment: string | null }[] };
      const d = status.decisions.at(-1)!;
      assert.deepEqual(
        [d.decision, d.via, d.decided_by, d.comment],
        ['approve', 'app', os.userInfo().username, 'From the chat'],
      );
    } finally {
      await page.close();
    }
  });

  it("the model calling the decision tool itself, without the page's ticket, is refused", async () => {
    const repo2 = tempRepo({ 'README.md': '# demo\n' });
    const agent2 = await connect(repo2);
    const host2 = await appClient(repo2);
    try {
      const { workspace, action } = await toCheckpoint(agent2, repo2);
      const refused = await host2.callTool({
        name: 'ui_decide_checkpoint',
        arguments: { workspace, checkpoint: String(action.name), decision: 'approve', ticket: 'guessed' },
      });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /Unauthorized.*ticket/);
      // What the model sees of the view (content and structuredContent) holds no ticket.
      const view = await host2.callTool({ name: 'ui_checkpoint', arguments: { workspace } });
      const ticket = (view._meta as Record<string, string>)['agent-ledger/decision-ticket'];
      assert.ok(ticket, 'the page gets a ticket in _meta');
      assert.ok(!JSON.stringify([view.content, view.structuredContent]).includes(ticket));
    } finally {
      await host2.close();
      await agent2.close();
    }
  });

  it("Approve from the page's frame is refused on a server that holds an agent's credentials", async () => {
    const repo3 = tempRepo({ 'README.md': '# demo\n' });
    const agent3 = await connect(repo3);
    // The server a runner launches for an agent: its launch ticket and agent id in the environment.
    const agentHost = await appClient(repo3, {
      ...ledgerEnv(repo3),
      AGENT_LEDGER_AGENT_ID: 'coder',
      AGENT_LEDGER_LAUNCH_TICKET: 'ticket-of-a-run',
    });
    const page = await openHost(agentHost);
    try {
      const { workspace } = await toCheckpoint(agent3, repo3);
      const result = await agentHost.callTool({ name: 'pipeline_next_action', arguments: { workspace } });
      await showCheckpoint(page, workspace, result, agentHost);
      const frame = page.frameLocator('[data-testid=app-frame]');
      await frame.locator('[data-testid=decision]').waitFor({ timeout: 20_000 });
      await frame.locator('button[data-decision=approve]').click();
      const said = frame.locator('[data-testid=decision-result]');
      await said.waitFor({ timeout: 10_000 });
      assert.match(await said.innerText(), /never taken with an agent's credentials/);
      const status = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'pipeline', 'status', workspace, '--workspace', repo3, '--json'], {
          encoding: 'utf8',
          env: ledgerEnv(repo3),
        }),
      ) as { status: string; decisions: unknown[] };
      assert.equal(status.status, 'awaiting_human', 'still waiting for a person');
      await page.screenshot({ path: path.join(shots, 'checkpoint-app-agent-refused.png') });
    } finally {
      await page.close();
      await agentHost.close();
      await agent3.close();
    }
  });

  let browser: BrowserSession | undefined;
  after(async () => browser?.close());

  async function openHost(client: Client = host): Promise<Page> {
    browser ??= await BrowserSession.launch({
      viewport: { width: 1200, height: 820 },
      consoleLogFile: path.join(shots, 'console.log'),
    });
    const context = await browser.context
      .browser()!
      .newContext()
      .catch(() => undefined);
    const page = context ? await context.newPage() : await browser.context.newPage();
    await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) =>
      client.callTool({ name: params.name, arguments: params.arguments ?? {} }),
    );
    await page.setContent(hostHtml);
    return page;
  }

  async function showCheckpoint(page: Page, workspace: string, result: unknown, client: Client = host): Promise<void> {
    const html = (
      (await client.readResource({ uri: 'ui://agent-ledger/checkpoint.html' })).contents[0] as { text: string }
    ).text;
    await page.evaluate(
      ([h, input, r]) =>
        (window as unknown as { showApp: (a: string, b: unknown, c: unknown) => Promise<void> }).showApp(h, input, r),
      [html, { workspace }, result] as const,
    );
  }
});
