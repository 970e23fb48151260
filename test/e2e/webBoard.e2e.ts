// The web board (`agent-ledger ui`) in headless Debian Chromium, driven like a person: it opens
// the printed address, sees tasks another process writes appear without a reload, reads a task's
// exact diff, approves a checkpoint an agent is waiting at (the agent's call returns), and the
// server refuses requests without the token, from another origin or host, or outside the app.
// Needs only Chromium (scripts/e2e/setup.mjs installs it); no code-server.
import { planNodes } from './harness/planNodes';
import { pauseLaunchesNothing } from './harness/planPause';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import type { Locator, Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { BrowserSession, screenshotsDir } from './harness/browser';
import { startUi } from './harness/uiProcess';
import type { Ui } from './harness/uiProcess';
import { chromiumPath } from './harness/paths';
import { cliPath, connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { ledgerEnv, testStore } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import type { FakeScript } from '../helpers/fakeAgents';
import { drive, start, twoTasks } from '../mcp/pipelineDriver';
import type { Action } from '../mcp/pipelineDriver';
import type { PlanWorld, RunStatus, RunnerProcess } from '../mcp/planRunHelpers';
import { alive, dependsOn, executionsOf, planTask, planWorld, working } from '../mcp/planRunHelpers';

/** A raw request with the headers a test chooses (fetch would set Host and Origin itself). */
function request(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        // An event stream never ends: its first bytes are enough.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          res.once('data', () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
            req.destroy();
          });
          return;
        }
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Opens the Board's view as a WebSocket with the headers a test chooses: its first message, or why it was refused. */
function openView(port: number, headers: Record<string, string>, host = `127.0.0.1:${port}`): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/views/board`, { headers: { ...headers, host } });
    ws.on('unexpected-response', (_req, res) => {
      resolve(`refused ${res.statusCode}`);
      ws.terminate();
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'ready' })));
    ws.on('message', (data: Buffer) => {
      resolve(data.toString());
      ws.close();
    });
    ws.on('error', (err) => resolve(`error ${err.message}`));
  });
}

const shotsDir = path.join(screenshotsDir, 'web-board');

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
}

/** The Board's waiting checkpoint card, clicked: its pipeline page's decision box (a picture of the Board first, when named). */
async function checkpointFromBoard(page: Page, port: number, picture?: string): Promise<Locator> {
  await page.goto(`http://127.0.0.1:${port}/#/board`);
  const card = page.locator('[data-column=needs_person] article.kind-checkpoint');
  await card.waitFor({ timeout: 15_000 });
  if (picture) await shot(page, picture);
  await card.click();
  await page.waitForURL(/#\/pipeline\//, { timeout: 5_000 });
  const box = page.locator('[data-testid=decision]');
  await box.waitFor({ timeout: 10_000 });
  return box;
}

describe(
  `agent-ledger ui in a real browser, ${testStore === 'postgres' ? 'on a team ledger (PostgreSQL)' : 'on the embedded store'}`,
  { skip: fs.existsSync(chromiumPath) ? false : `no ${chromiumPath}` },
  () => {
    let repo: string;
    let agent: LedgerClient;
    let ui: Ui;
    let browser: BrowserSession;
    let page: Page;

    before(async () => {
      repo = tempRepo({ 'README.md': '# demo\n', 'src/app.ts': 'export const limit = 10;\n' });
      agent = await connect(repo);
      await agent.call('task_create', { title: 'Write the changelog', assignee: 'writer' });
      ui = await startUi(repo);
      browser = await BrowserSession.launch({
        viewport: { width: 1280, height: 800 },
        consoleLogFile: path.join(shotsDir, 'console.log'),
      });
      page = await browser.page();
    });

    after(async () => {
      await browser?.close();
      ui?.child.kill('SIGTERM');
      await agent?.close();
    });

    it('refuses a request without the token, from another origin or host, or outside the app', async () => {
      const host = `127.0.0.1:${ui.port}`;
      const cookie = `agent-ledger-ui-${ui.port}=${ui.token}`;
      assert.equal((await request(ui.port, { path: '/', headers: { host } })).status, 401, 'no token: the page');
      assert.equal(
        (await request(ui.port, { path: '/api/views/board', headers: { host } })).status,
        401,
        'no token: data',
      );
      assert.equal(
        (
          await request(ui.port, {
            path: '/api/views/board',
            headers: { host, cookie: `agent-ledger-ui-${ui.port}=wrong` },
          })
        ).status,
        401,
        'a wrong token',
      );
      // DNS rebinding: a page of another name resolving to 127.0.0.1, even with the token.
      assert.equal(
        (await request(ui.port, { path: `/?token=${ui.token}`, headers: { host: `evil.example:${ui.port}` } })).status,
        403,
      );
      assert.equal(
        (await request(ui.port, { path: '/api/views/board', headers: { host, cookie, origin: 'http://evil.example' } }))
          .status,
        403,
        'another origin',
      );
      assert.equal(
        (
          await request(ui.port, {
            path: '/api/views/board',
            headers: { host, cookie, 'sec-fetch-site': 'cross-site' },
          })
        ).status,
        403,
        'another site',
      );
      assert.equal(
        (
          await request(ui.port, {
            method: 'POST',
            path: '/api/views/x',
            headers: { host, cookie, 'content-type': 'application/json' },
            body: '{"type":"cancel","taskId":1}',
          })
        ).status,
        403,
        'a change without Origin',
      );
      for (const p of [
        '/../package.json',
        '/src/web/uiServer.ts',
        '/dist/cli.js',
        '/web.js.map',
        '/%2e%2e/%2e%2e/etc/passwd',
      ])
        assert.equal((await request(ui.port, { path: p, headers: { host, cookie } })).status, 404, p);
      assert.equal(
        (await request(ui.port, { path: '/api/views/board', headers: { host, cookie } })).status,
        426,
        'a view opens as a WebSocket',
      );
      const origin = `http://${host}`;
      assert.match(await openView(ui.port, { origin }), /^refused 401/, 'a view without the cookie');
      assert.match(
        await openView(ui.port, { origin: 'http://evil.example', cookie }),
        /^refused 403/,
        'a view opened from another origin, with the cookie (cross-site WebSocket hijacking)',
      );
      assert.match(await openView(ui.port, { cookie }), /^refused 403/, 'a view without Origin');
      assert.match(
        await openView(ui.port, { origin, cookie }, `evil.example:${ui.port}`),
        /^refused 403/,
        'a view naming another host',
      );
      assert.match(await openView(ui.port, { origin, cookie }), /^\{"type":"board"/, 'with the cookie, the data comes');
      assert.ok(!ui.stderr().includes(ui.token), 'the token is in no log line');
    });

    it('opens from the printed address: the token leaves the address bar for an HttpOnly SameSite=Strict cookie', async () => {
      const swap = await request(ui.port, { path: `/?token=${ui.token}`, headers: { host: `127.0.0.1:${ui.port}` } });
      assert.equal(swap.status, 303);
      assert.equal(swap.headers.location, '/');
      assert.match(String(swap.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
      await page.goto(ui.url);
      assert.equal(page.url(), `http://127.0.0.1:${ui.port}/`, 'no token in the address bar');
      await page.locator('[data-card="task-1"]').waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read the cookie');
      const columns = await page
        .locator('[data-column]')
        .evaluateAll((els) =>
          els.map((e) => ({ id: (e as HTMLElement).dataset.column, right: e.getBoundingClientRect().right })),
        );
      assert.equal(columns[0].id, 'needs_person', '"Needs a person" first');
      assert.equal(columns.length, 6);
      for (const c of columns) assert.ok(c.right <= 1280, `column ${c.id} ends at ${c.right}: nothing cut at 1280 px`);
      await shot(page, 'board');
    });

    it('lists a task another process writes within a second, without a reload', async () => {
      const before = await page.evaluate(() => performance.timeOrigin);
      const t0 = Date.now();
      const created = await agent.call<{ id: number }>('task_create', {
        title: 'Add rate limiting',
        assignee: 'coder',
      });
      const written = Date.now();
      const card = page.locator(`[data-card="task-${created.id}"]`);
      await card.waitFor({ state: 'visible', timeout: 5_000 });
      const shown = Date.now();
      assert.equal(await page.evaluate(() => performance.timeOrigin), before, 'the same page: no reload');
      assert.ok(
        shown - written <= 1000,
        `shown ${shown - written} ms after the write returned (the call took ${written - t0} ms)`,
      );
      await shot(page, 'board-live');
    });

    it('filters by agent and opens a task with the keyboard', async () => {
      await page.selectOption('[data-testid=filter-agent]', 'coder');
      await page.locator('[data-card="task-1"]').waitFor({ state: 'detached', timeout: 5_000 });
      await page.selectOption('[data-testid=filter-agent]', '');
      await page.locator('[data-card="task-2"]').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/task\/2$/, { timeout: 5_000 });
      await page.locator('h1', { hasText: 'Add rate limiting' }).waitFor({ timeout: 5_000 });
    });

    it("shows a finished task's exact diff, per file", async () => {
      const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', { name: 'Limits' });
      const { task_id } = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Raise the limit',
        goal: 'Raise the limit to 20',
      });
      fs.writeFileSync(path.join(repo, 'src/app.ts'), 'export const limit = 20;\nexport const burst = 5;\n');
      await agent.call('complete_task', { task_id, status: 'success', outcome: { summary: 'raised' } });
      await page.goto(`http://127.0.0.1:${ui.port}/#/task/${task_id.replace('task-', '')}`);
      await page.locator('a.file[data-path="src/app.ts"]').click();
      const diff = page.locator('[data-testid=diff]');
      await diff.waitFor({ timeout: 10_000 });
      const text = await diff.innerText();
      assert.match(text, /-export const limit = 10;/);
      assert.match(text, /\+export const limit = 20;/);
      assert.match(text, /\+export const burst = 5;/);
      assert.match(text, /\(start of task-\d+\) → snapshot [0-9a-f]{8} \(end of task-\d+\)/);
      await shot(page, 'task-diff');
    });

    it('filters by workflow and by state, and the filters undone show every card again', async () => {
      await page.goto(`http://127.0.0.1:${ui.port}/#/board`);
      const limit = page.locator('[data-card]', { hasText: 'Raise the limit' });
      await limit.waitFor({ timeout: 10_000 });
      const limitId = await limit.getAttribute('data-card');
      const { status } = await agent.call<{ status: string }>('task_get', {
        id: Number(limitId!.replace('task-', '')),
      });
      const cards = () =>
        page.locator('[data-card]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card));

      await page.selectOption('[data-testid=filter-workflow]', 'Limits');
      await page.locator('[data-card="task-1"]').waitFor({ state: 'detached', timeout: 5_000 });
      assert.deepEqual(await cards(), [limitId], 'only the workflow’s task');
      await page.selectOption('[data-testid=filter-workflow]', '');
      await page.locator('[data-card="task-1"]').waitFor({ timeout: 5_000 });

      await page.selectOption('[data-testid=filter-status]', status);
      await page.locator('[data-card="task-1"]').waitFor({ state: 'detached', timeout: 5_000 });
      const shown = await cards();
      assert.ok(shown.includes(limitId!), `the ${status} task is shown`);
      for (const id of shown) {
        const t = await agent.call<{ status: string }>('task_get', { id: Number(id!.replace('task-', '')) });
        assert.equal(t.status, status, `${id} is ${status}`);
      }
      // Kept across a reload (the person's choice), then undone.
      await page.reload();
      await page.locator('[data-card="task-1"]').waitFor({ state: 'detached', timeout: 5_000 });
      await limit.waitFor({ timeout: 10_000 });
      await page.selectOption('[data-testid=filter-status]', '');
      await page.locator('[data-card="task-1"]').waitFor({ timeout: 5_000 });
    });

    it('acts where it reads: Resume a held task, Dismiss a review with a note, as the person', async () => {
      execFileSync(process.execPath, [cliPath, 'task', 'hold', '1', '--workspace', repo], { env: ledgerEnv(repo) });
      await page.goto(`http://127.0.0.1:${ui.port}/#/task/1`);
      const held = page.locator('[data-testid=held]');
      await held.waitFor({ timeout: 10_000 });
      assert.match(await held.innerText(), new RegExp(`Held — stopped by ${os.userInfo().username}`));
      await held.getByRole('button', { name: 'Resume', exact: true }).click();
      await held.waitFor({ state: 'detached', timeout: 5_000 });
      assert.equal((await agent.call<{ hold: unknown }>('task_get', { id: 1 })).hold, null);

      const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', { name: 'Review' });
      const { task_id } = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Rotate keys',
        goal: 'Rotate the signing keys',
      });
      await agent.call('complete_task', {
        task_id,
        status: 'success',
        outcome: { summary: 'rotated', manual_review_needed: true, manual_review_reason: 'touches keys' },
      });
      await page.goto(`http://127.0.0.1:${ui.port}/#/task/${task_id.replace('task-', '')}`);
      const review = page.locator('[data-testid=review]');
      await review.waitFor({ timeout: 10_000 });
      assert.match(await review.innerText(), /Manual review needed: touches keys/);
      await review.getByRole('textbox', { name: 'Review note (optional)' }).fill('Nothing to check: test keys');
      await review.getByRole('button', { name: 'Dismiss', exact: true }).click();
      await review.waitFor({ state: 'detached', timeout: 5_000 });
      await page.locator('[data-testid=acted]', { hasText: 'review dismissed' }).waitFor({ timeout: 5_000 });
      await page
        .locator('[data-testid=reviewed]', { hasText: `Review dismissed by ${os.userInfo().username}` })
        .waitFor({ timeout: 5_000 });
      const got = await agent.call<{ completionReview: { verdict: string; note: string; reviewedBy: string } }>(
        'task_get',
        { id: task_id },
      );
      assert.deepEqual(
        [got.completionReview.verdict, got.completionReview.note, got.completionReview.reviewedBy],
        ['dismissed', 'Nothing to check: test keys', os.userInfo().username],
      );
      await shot(page, 'task-detail-acted');
    });

    it("approves a waiting checkpoint: the agent's waiting call returns, the decision is the person's", async () => {
      const { workspace } = await start(agent, 'Fix the typo in the README --nopr', {
        effort: 'S',
        use_current_branch: false,
      });
      let waited: { next: Action; ms: number } | undefined;
      await drive(agent, repo, workspace, {
        tasksMd: twoTasks,
        onAction: async (a: Action) => {
          if (a.type !== 'checkpoint') return;
          // The agent waits for a person, as a real one does (a bounded wait).
          const waiting = agent.call<Action>('pipeline_next_action', { workspace, wait_ms: 45_000 });
          const box = await checkpointFromBoard(page, ui.port, 'board-checkpoint');
          await page.fill('#decision-comment', 'Looks right');
          await shot(page, 'checkpoint');
          const clicked = Date.now();
          await box.locator('button[data-decision=approve]').click();
          const next = await waiting;
          waited = { next, ms: Date.now() - clicked };
          await page.locator('[data-testid=decision-result]').waitFor({ timeout: 10_000 });
          return 'stop';
        },
      });
      assert.ok(waited, 'the flow reached a checkpoint');
      assert.notEqual(waited.next.type, 'checkpoint', `the agent goes on: ${waited.next.type}`);
      const detail = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'pipeline', 'status', workspace, '--workspace', repo, '--json'], {
          encoding: 'utf8',
          env: ledgerEnv(repo),
        }),
      ) as { decisions: { decided_by: string; via: string; comment: string | null; decision: string }[] };
      const decision = detail.decisions.at(-1)!;
      assert.equal(decision.decision, 'approve');
      assert.equal(decision.via, 'web');
      assert.equal(decision.decided_by, os.userInfo().username, 'recorded as the OS user who started agent-ledger ui');
      assert.equal(decision.comment, 'Looks right');
    });

    it('rejects a waiting checkpoint with a comment: recorded as the person, the waiting agent is told', async () => {
      const { workspace } = await start(agent, 'Document the limits in the README --nopr', {
        effort: 'S',
        use_current_branch: false,
      });
      let next: Action | undefined;
      await drive(agent, repo, workspace, {
        tasksMd: twoTasks,
        onAction: async (a: Action) => {
          if (a.type !== 'checkpoint') return;
          const waiting = agent.call<Action>('pipeline_next_action', { workspace, wait_ms: 45_000 });
          const box = await checkpointFromBoard(page, ui.port);
          await page.fill('#decision-comment', 'Split the README change from the limits');
          await box.locator('button[data-decision=reject]').click();
          next = await waiting;
          await page.locator('[data-testid=decision-result]').waitFor({ timeout: 10_000 });
          await shot(page, 'checkpoint-rejected');
          return 'stop';
        },
      });
      assert.ok(next, 'the flow reached a checkpoint');
      assert.notEqual(next.type, 'checkpoint', `the waiting call returned with the next step: ${next.type}`);
      const detail = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'pipeline', 'status', workspace, '--workspace', repo, '--json'], {
          encoding: 'utf8',
          env: ledgerEnv(repo),
        }),
      ) as { decisions: { decided_by: string; via: string; comment: string | null; decision: string }[] };
      assert.deepEqual(
        detail.decisions.map((d) => [d.decision, d.comment, d.decided_by, d.via]),
        [['reject', 'Split the README change from the limits', os.userInfo().username, 'web']],
      );
    });

    it('the Memory Bank follows an entry added by another process; the plan graph and Agents & Sessions open', async () => {
      await page.goto(`http://127.0.0.1:${ui.port}/#/memory`);
      await page.locator('h1', { hasText: 'Memory Bank' }).waitFor({ timeout: 10_000 });
      execFileSync(
        process.execPath,
        [
          cliPath,
          'memory',
          'add',
          'test-runner',
          '--workspace',
          repo,
          '--category',
          'tooling',
          '--title',
          'Tests run with node:test',
          '--summary',
          'no mocha',
          '--content',
          'Run `node --test`.',
        ],
        { env: ledgerEnv(repo), encoding: 'utf8' },
      );
      const entry = page.locator('[data-entry="tooling/test-runner"]');
      await entry.waitFor({ timeout: 5_000 });
      await entry.locator('a', { hasText: 'Tests run with node:test' }).click();
      assert.match(
        await page.locator('[data-testid=memory-entry]').innerText({ timeout: 5_000 }),
        /Run `node --test`\./,
      );

      const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', { name: 'Release' });
      const tag = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Tag the release',
        goal: 'tag v1',
      });
      // A sub-task: drawn with a dashed edge from its parent, told apart from dependencies by the legend.
      const notes = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Write the release notes',
        goal: 'notes for v1',
        parent_task_id: tag.task_id,
      });
      await page.goto(`http://127.0.0.1:${ui.port}/#/plan/${workflow_id.replace(/\D+/g, '')}`);
      await page.locator('h1', { hasText: 'Release' }).waitFor({ timeout: 10_000 });
      const graph = page.locator('[data-testid=plan-graph]');
      assert.match((await graph.textContent({ timeout: 5_000 })) ?? '', /Tag the release/);
      const parentEdge = graph.locator(`polyline.edge-parent[data-from="${tag.task_id}"][data-to="${notes.task_id}"]`);
      assert.equal(await parentEdge.count(), 1, 'the sub-task hangs from its parent');
      assert.equal(
        await parentEdge.evaluate((e) => getComputedStyle(e).strokeDasharray),
        '5px, 4px',
        'dashed, unlike a dependency',
      );
      assert.match(await page.locator('[data-testid=graph-legend]').innerText(), /sub-task of/);
      await shot(page, 'plan-graph-sub-task');

      await page.keyboard.press('Alt+A');
      await page.locator('h1', { hasText: 'Agents & Sessions' }).waitFor({ timeout: 10_000 });
      await shot(page, 'agents');
    });

    it('a session whose process dies turns stale without a reload; End Session records it ended by the person', async () => {
      const { id: taskId } = await agent.call<{ id: number }>('task_create', { title: 'Outlived by its session' });
      // A real process holds the session: the shell the CLI ran in (as `eval "$(agent-ledger worker
      // command N)"` does), which then becomes a sleep of the same pid.
      const holder = spawn(
        'sh',
        [
          '-c',
          '"$0" "$1" session start "$2" --agent coder --workspace "$3" --json && exec sleep 120',
          process.execPath,
          cliPath,
          String(taskId),
          repo,
        ],
        { env: { ...ledgerEnv(repo), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        const sessionId = await new Promise<number>((resolve, reject) => {
          let out = '';
          holder.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /"sessionId":\s*(\d+)/.exec(out);
            if (m) resolve(Number(m[1]));
          });
          holder.on('exit', (code) => reject(new Error(`session start exited ${code}: ${out}`)));
        });
        await page.goto(ui.url); // the printed address: its token becomes the page's cookie
        await page.goto(`http://127.0.0.1:${ui.port}/#/agents`);
        const row = page.locator(`[data-agent=coder] li[data-session="${sessionId}"]`);
        await row.waitFor({ timeout: 10_000 });
        const facts = page.locator('[data-agent=coder] [data-testid=agent-facts]');
        const runningOf = async () => Number(/(\d+) running/.exec(await facts.innerText())?.[1] ?? 0);
        assert.match(await row.innerText(), /running/);
        assert.equal(await row.locator('[data-testid=session-stale]').count(), 0, 'its process runs');
        assert.doesNotMatch(await facts.innerText(), /stale/);
        const before = await runningOf();
        assert.ok(before >= 1, `counted running: ${await facts.innerText()}`);
        await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

        holder.kill('SIGKILL');
        await once(holder, 'exit');
        const killed = Date.now();
        // Nothing is written when a process dies: the page's 5 s re-check finds it gone.
        await row.locator('[data-testid=session-stale]').waitFor({ timeout: 12_000 });
        const seenAfter = Date.now() - killed;
        assert.ok(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), 'no reload');
        assert.match(await facts.innerText(), /(^|· |, )1 stale/);
        assert.equal(await runningOf(), before - 1, 'a stale session is not counted running');
        await shot(page, 'agents-stale');

        await row.getByRole('button', { name: 'End Session', exact: true }).click();
        const form = row.locator('[data-testid=end-session]');
        await form.getByRole('spinbutton', { name: `Exit code of session ${sessionId}` }).fill('137');
        await shot(page, 'agents-end-session');
        await form.getByRole('button', { name: 'End Session', exact: true }).click();
        await page
          .locator('[data-testid=acted]', { hasText: `Session ${sessionId} ended by ${os.userInfo().username}` })
          .waitFor({ timeout: 5_000 });
        await row.locator('[data-testid=session-stale]').waitFor({ state: 'detached', timeout: 5_000 });
        assert.match(await row.innerText(), new RegExp(`failed.*ended by ${os.userInfo().username}`, 's'));
        assert.doesNotMatch(await facts.innerText(), /stale/);
        const listed = JSON.parse(
          execFileSync(
            process.execPath,
            [cliPath, 'session', 'list', '--task', String(taskId), '--workspace', repo, '--json'],
            { encoding: 'utf8', env: ledgerEnv(repo) },
          ),
        ) as { sessions: { id: number; status: string; exitCode: number; endedBy?: string; liveness?: string }[] };
        assert.deepEqual(
          listed.sessions.map((x) => [x.id, x.status, x.exitCode, x.endedBy, x.liveness]),
          [[sessionId, 'failed', 137, os.userInfo().username, undefined]],
          'ended by the OS user who started agent-ledger ui, never an agent',
        );
        assert.match(
          execFileSync(process.execPath, [cliPath, 'session', 'list', '--task', String(taskId), '--workspace', repo], {
            encoding: 'utf8',
            env: { ...ledgerEnv(repo), NO_COLOR: '1' },
          }),
          new RegExp(`failed \\(ended by ${os.userInfo().username}\\)`),
        );
        console.log(`# stale seen ${seenAfter} ms after the kill (re-check every 5 s)`);
      } finally {
        holder.kill('SIGKILL');
      }
    });

    it('eight tabs stay in step: each shows a write, and a click in one reaches the ledger', async () => {
      // Browsers keep at most 6 HTTP connections to one server: views held open on them stalled the 6th tab.
      const tabs = [page];
      for (let i = 1; i < 8; i++) tabs.push(await browser.newPage());
      for (const tab of tabs) {
        await tab.goto(`http://127.0.0.1:${ui.port}/#/board`);
        await tab.locator('[data-card="task-1"]').waitFor({ timeout: 10_000 });
      }
      const created = await agent.call<{ id: number }>('task_create', { title: 'Seen everywhere', assignee: 'coder' });
      for (const [i, tab] of tabs.entries())
        await tab
          .locator(`[data-card="task-${created.id}"]`)
          .waitFor({ timeout: 5_000 })
          .catch(() => assert.fail(`tab ${i + 1} did not show the new task`));
      // The last tab cancels it (drag to "Cancel task"); the first tab sees it leave its column.
      const last = tabs.at(-1)!;
      await last.dragAndDrop(`[data-card="task-${created.id}"]`, '[data-testid=drop-cancel]');
      await page.locator(`[data-column=failed] [data-card="task-${created.id}"]`).waitFor({ timeout: 5_000 });
      const task = await agent.call<{ status: string }>('task_get', { id: created.id });
      assert.equal(task.status, 'cancelled');
      for (const tab of tabs.slice(1)) await tab.close();
    });

    it('follows the system theme, and a switch picks light or dark', async () => {
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`http://127.0.0.1:${ui.port}/#/board`);
      await page.locator('[data-column]').first().waitFor();
      const dark = await background();
      await page.emulateMedia({ colorScheme: 'light' });
      const light = await background();
      assert.notEqual(dark, light, 'prefers-color-scheme is followed');
      await page.click('[data-testid=theme]'); // system → light
      await page.click('[data-testid=theme]'); // light → dark
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      assert.equal(await background(), dark, 'the switch wins over the system');
      await shot(page, 'board-dark');
      await page.click('[data-testid=theme]'); // back to the system's
    });

    it("follows a run's output live, then shows what it cost", async () => {
      // The runner launches the scripted claude for the reviewer; it prints, then waits for a handoff.
      const fakes = fakeAgents();
      const script: FakeScript = {
        steps: [],
        byAgent: {
          reviewer: {
            usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
            steps: [
              logIn,
              { call: 'get_my_task', args: {} },
              { print: 'step one: reading the diff' },
              { call: 'get_pending_handoffs', args: { agent_id: 'reviewer', wait_ms: 45_000 } },
              { print: 'step two: the review is written' },
              { call: 'report_completed', args: { result: 'success', summary: 'reviewed' } },
            ],
          },
        },
      };
      const created = JSON.parse(
        execFileSync(
          process.execPath,
          [cliPath, 'task', 'create', 'Review the limits', '--agent', 'reviewer', '--workspace', repo, '--json'],
          { encoding: 'utf8', env: ledgerEnv(repo) },
        ),
      ) as { task_id: string };
      const pm = await connect(repo, ['--enable-pm']);
      const runner = spawn(process.execPath, [cliPath, 'runner', '--interval', '0.3', '--workspace', repo], {
        env: { ...ledgerEnv(repo), ...fakes.env(script), NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let runnerOut = '';
      runner.stdout.on('data', (d: Buffer) => (runnerOut += d.toString()));
      runner.stderr.on('data', (d: Buffer) => (runnerOut += d.toString()));
      const runnerExit = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
      try {
        await page.goto(`http://127.0.0.1:${ui.port}/#/runs`);
        await page.locator('h1', { hasText: 'Runs' }).waitFor({ timeout: 10_000 });
        const row = page.locator('tr[data-run]', { hasText: 'reviewer' }).first();
        await row.waitFor({ timeout: 30_000 });
        assert.match(await row.innerText(), new RegExp(created.task_id));
        await row.locator('a').first().click();
        const output = page.locator('[data-testid=run-output]');
        await output.locator('text=step one: reading the diff').waitFor({ timeout: 15_000 });
        assert.doesNotMatch(await output.innerText(), /step two/, 'the run waits: its second line is not written yet');
        await shot(page, 'runs-live');
        const before = await page.evaluate(() => performance.timeOrigin);
        await pm.call('create_handoff', {
          task_id: created.task_id,
          from_agent_id: 'coder',
          to_agent_id: 'reviewer',
          summary: 'go on',
        });
        await output.locator('text=step two: the review is written').waitFor({ timeout: 15_000 });
        assert.equal(await page.evaluate(() => performance.timeOrigin), before, 'followed live, without a reload');
        // The cost comes with the run's end (the client's last output): the row is redrawn with it.
        await page.waitForFunction(
          () =>
            Array.from(document.querySelectorAll('tr[data-run]')).some(
              (r) =>
                r.textContent?.includes('reviewer') &&
                /\$0\.04/.test(r.querySelector('[data-testid=run-cost]')?.textContent ?? ''),
            ),
          undefined,
          { timeout: 30_000 },
        );
        assert.match(await row.innerText(), /completed/);
        assert.match(await page.locator('[data-testid=runs-total]').innerText(), /\$0\.04/);
        await shot(page, 'runs-cost');
      } finally {
        runner.kill('SIGINT');
        assert.equal(await runnerExit, 0, runnerOut);
        await pm.close();
      }
    });
  },
);

describe(
  'a plan run in the web board: node states live, Pause, Approve and Cancel from the page',
  { skip: fs.existsSync(chromiumPath) ? false : `no ${chromiumPath}` },
  () => {
    let w: PlanWorld;
    let ui: Ui;
    let runner: RunnerProcess | undefined;
    let browser: BrowserSession;
    let page: Page;

    before(async () => {
      w = await planWorld(['coder', 'a2', 'a3']);
      ui = await startUi(w.repo);
      browser = await BrowserSession.launch({ viewport: { width: 1280, height: 800 } });
      page = await browser.page();
    });

    after(async () => {
      await runner?.stop();
      await browser?.close();
      ui?.child.kill('SIGTERM');
      await w?.orch.close();
    });

    it('a plan of 3 tasks runs through the real runner; Pause holds back its queued task, Approve opens a gate, Cancel stops its agent', async () => {
      const t1 = await planTask(w, 'schema');
      const t2 = await planTask(w, 'api');
      const t3 = await planTask(w, 'docs');
      await dependsOn(w, [
        [t1, t2],
        [t2, t3],
      ]);
      // The third task waits for a person's approval before it starts.
      await w.orch.call('graph_batch_mutate', {
        graph_id: w.workflowId,
        operations: [{ op: 'set_node_attribute', id: t3, key: 'gate', value: 'the API looks right' }],
      });
      const env = w.fakes.env({
        steps: [],
        byAgent: {
          coder: { ...working(1000), usage: { costUsd: 0.42 } },
          a2: working(500),
          // The third task's agent works until it is stopped.
          a3: { steps: [...working(0).steps.slice(0, 2), { sleep: 120_000 }] },
        },
      });
      const started = await w.orch.call<RunStatus>('plan_run_reactive', {
        graph_id: w.workflowId,
        agents: { [t1]: 'coder', [t2]: 'a2', [t3]: 'a3' },
        tick_ms: 200,
      });
      // The Board shows the run going on; its id opens the workflow's Plan graph.
      await page.goto(ui.url);
      const strip = page.locator(`[data-testid=plan-runs] [data-run="${started.run_id}"]`);
      await strip.waitFor({ timeout: 10_000 });
      assert.match(
        await strip.innerText(),
        new RegExp(`running[\\s\\S]*0/4 done[\\s\\S]*started by ${os.userInfo().username}`),
      );
      await strip.locator('a', { hasText: started.run_id }).click();
      await page.waitForURL(new RegExp(`#/plan/${w.workflowId.replace(/\D+/g, '')}$`), { timeout: 5_000 });
      const bar = page.locator('[data-testid=plan-run]');
      await bar.waitFor({ timeout: 10_000 });
      assert.equal(await bar.getAttribute('data-run'), started.run_id);
      const { state, until } = planNodes(page, () => runner?.summary() ?? 'no runner yet');

      // The first task is queued for its agent (no runner yet); the later ones wait. Pause from the
      // page holds it back, and a runner started then launches nothing.
      await until(t1, 'queued');
      assert.equal(await state(t2), 'waiting');
      assert.equal(await state(t3), 'waiting');
      runner = await pauseLaunchesNothing(page, {
        w,
        runId: started.run_id,
        task: t1,
        env,
        person: "the page's person",
        pausedWithinMs: 5_000,
      });

      // Resume from the page: the first task's agent runs (the node names its run and agent); the
      // runner records its run's cost as it ends, and the page shows it done with that cost within a second.
      await page.click('[data-testid=plan-resume]');
      await until(t1, 'running');
      assert.match(
        (await page.locator(`[data-node="${t1}"] .node-plan`).textContent()) ?? '',
        /running exec-\d+ · coder/,
      );
      const end = await runner.until((e) => e.kind === 'ended');
      await page
        .locator(`[data-node="${t1}"][data-plan-state=done] .node-plan`, { hasText: '$0.42' })
        .waitFor({ timeout: 10_000 });
      const shownAfter = Date.now() - (end.at as number);
      assert.ok(shownAfter <= 1000, `shown ${shownAfter} ms after the runner said the agent ended`);

      // The second task runs; then the third waits for a person.
      await until(t2, 'done');
      await until(t3, 'needs-person');
      assert.deepEqual(await executionsOf(w.orch, t3), [], 'nothing starts before a person approves');
      const gate = page.locator('[data-testid=plan-run] .plan-gate');
      assert.match(await gate.innerText(), new RegExp(`${t3}: waits for a person to approve: the API looks right`));
      await gate.locator('[data-testid=plan-approve]').click();
      await until(t3, 'running');
      const approved = (await w.orch.call<{ runs: RunStatus[] }>('plan_status', { run_id: started.run_id })).runs[0];
      assert.equal(approved.nodes.find((n) => n.id === `${t3}~gate`)?.status, 'success');
      assert.equal(await page.locator('[data-testid=plan-approve]').count(), 0, 'no Approve once decided');

      // Cancel from the page stops the third task's agent.
      const launched = await runner.until(
        (e) => e.kind === 'launched' && (e.instance as { agentId: string }).agentId === 'a3',
      );
      const pid = (launched.instance as { pid: number }).pid;
      assert.ok(alive(pid), 'the third task’s agent runs');
      await page.click('[data-testid=plan-cancel]');
      await page.locator('[data-testid=plan-run][data-status=cancelled]').waitFor({ timeout: 10_000 });
      await until(t3, 'cancelled', 10_000);
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(alive(pid), false, 'no agent process after Cancel');
      assert.equal(await page.locator('[data-testid=plan-pause], [data-testid=plan-cancel]').count(), 0);
      const cancelled = (await w.orch.call<{ runs: RunStatus[] }>('plan_status', { run_id: started.run_id })).runs[0];
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.reason, `cancelled by person:${os.userInfo().username}`);
      await page
        .locator('[data-testid=plan-run]', { hasText: `cancelled by ${os.userInfo().username}` })
        .waitFor({ timeout: 5_000 });
      await shot(page, 'plan-run-cancelled');
    });
  },
);
