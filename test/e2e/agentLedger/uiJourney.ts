// A person's session in the real workbench, with the VSIX installed: the welcome view, the MCP
// server listed, an outside agent's work showing live in the Tasks view, the status bar and a
// review notification, the task detail webview, its diff editor, rewind and undo, the CLI
// writing from outside, the report and the registration commands. Screenshots of each step
// land in test-results/e2e/screenshots/agent-ledger-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import { installedExtensionDir } from './extensionPackage';
import type { PackagedExtension } from './extensionPackage';
import { OutsideAgent, ledgerCli } from './outsideAgent';
import { initialFiles, createWorkspace, writeFiles } from './workspace';
import {
  activeTab,
  clickDialogButton,
  editorText,
  eventually,
  treeRow,
  watchSidebarRow,
  webviewFrame,
} from './workbenchLedger';
import { expandPane } from './workbenchForms';

/** Time from a write by another process to the view showing it, per step (printed at the end). */
export const liveTimings: { step: string; ms: number }[] = [];

export function describeUiJourney(pkg: () => PackagedExtension): void {
  describe('Agent Ledger in the workbench (VSIX installed, driven like a person)', { timeout: 300_000 }, () => {
    let server: CodeServer;
    let browser: BrowserSession;
    let wb: Workbench;
    let ws = '';
    let desktopDir = '';
    let agent: OutsideAgent | undefined;
    let taskId = '';
    const shot = (name: string): Promise<string> => wb.screenshot(`agent-ledger-${name}`);
    const file = (p: string): string => path.join(ws, p);

    before(async () => {
      ws = createWorkspace();
      desktopDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'al-e2e-desktop-')));
      writeFileSync(path.join(desktopDir, 'claude_desktop_config.json'), '{\n  "mcpServers": {}\n}\n');
      server = CodeServer.create({ name: 'agent-ledger-ui' });
      // A machine-scoped setting: in a remote window (code-server is one) VS Code reads it from
      // the machine's settings, not the user's.
      mkdirSync(path.join(server.userDataDir, 'Machine'), { recursive: true });
      writeFileSync(
        path.join(server.userDataDir, 'Machine', 'settings.json'),
        JSON.stringify({ 'agentLedger.claudeDesktopConfigPath': path.join(desktopDir, 'claude_desktop_config.json') }),
      );
      await server.installExtension(pkg().vsixPath);
      assert.ok((await server.listExtensions()).includes(`${pkg().id}@${pkg().version}`));
      await server.start();
      browser = await BrowserSession.launch({ consoleLogFile: path.join(server.runDir, 'browser-console.log') });
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
      wb = await Workbench.open(await browser.page(), server.workbenchUrl(ws));
    });

    after(async () => {
      await wb?.screenshot('agent-ledger-ui-final').catch(() => undefined);
      await agent?.close().catch(() => undefined);
      await browser?.close();
      await server?.stop();
      for (const dir of [ws, desktopDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('shows the welcome views, a line and buttons each, before any agent has worked', async () => {
      await wb.openViewContainer('Agent Ledger');
      const welcome = wb.page.locator('.part.sidebar .welcome-view-content').filter({ hasText: 'No agent work yet' });
      await welcome.waitFor({ state: 'visible', timeout: 30_000 });
      for (const button of ['Add to Claude Code', 'Add to Cursor', 'Get Started'])
        await welcome.getByRole('button', { name: button, exact: true }).waitFor({ state: 'visible' });
      const pipelines = await expandPane(wb.page, 'Pipelines');
      const waiting = pipelines
        .locator('.welcome-view-content')
        .filter({ hasText: 'each checkpoint waits here for your decision' });
      await waiting
        .getByRole('button', { name: 'Get Started', exact: true })
        .waitFor({ state: 'visible', timeout: 15_000 });
      await shot('welcome');
    });

    it('opens the Get Started walkthrough from the welcome view', async () => {
      const welcome = wb.page.locator('.part.sidebar .welcome-view-content').filter({ hasText: 'No agent work yet' });
      await welcome.getByRole('button', { name: 'Get Started', exact: true }).click();
      const walkthrough = wb.page.locator('.part.editor').filter({ hasText: 'Get Started with Agent Ledger' });
      await walkthrough.waitFor({ state: 'visible', timeout: 30_000 });
      for (const step of ['Connect an agent', 'Watch its first task', 'Open what it changed', 'Approve a checkpoint'])
        await walkthrough.getByText(step, { exact: true }).first().waitFor({ state: 'visible' });
      // The selected step's media (media/walkthrough/connect.md) renders beside it, in a webview.
      await webviewFrame(wb.page)
        .getByText('Agent Ledger is an MCP server')
        .waitFor({ state: 'visible', timeout: 15_000 });
      await shot('walkthrough');
      await wb.runCommand('View: Close All Editors');
    });

    it('lists its MCP server under MCP: List Servers', async () => {
      await wb.runCommand('MCP: List Servers');
      await wb.quickPickItem('Agent Ledger').waitFor({ state: 'visible', timeout: 30_000 });
      await shot('mcp-list-servers');
      await wb.closeQuickInput();
    });

    it('shows an outside agent’s workflow and running task live, in the view and the status bar', async () => {
      agent = await OutsideAgent.connect(pkg().unpackedDir, ws);
      const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', {
        name: 'Login page',
        plan: [{ step: 'form', goal: 'A login form' }],
      });
      ({ task_id: taskId } = await agent.call<{ task_id: string }>('start_task', {
        workflow_id,
        name: 'Add the login form',
        goal: 'A form that posts credentials',
        areas: ['src'],
      }));
      const shown = await watchSidebarRow(wb.page, /Add the login form.*40%/);
      const start = Date.now();
      await agent.call('log_milestone', { task_id: taskId, message: 'Form markup written', progress: 40 });
      liveTimings.push({
        step: 'agent log_milestone right after start_workflow/start_task created the ledger → Tasks view',
        ms: (await shown()) - start,
      });
      const status = await wb.waitForStatusBarText(
        new RegExp(`${taskId} Add the login form · 40% — Form markup written`),
        5_000,
      );
      await treeRow(wb.page, /Login page.*1 running/).waitFor({ state: 'visible', timeout: 2_000 });
      await shot('tasks-view-running');
      // The status bar entry opens the running task's detail.
      await status.click();
      const frame = webviewFrame(wb.page);
      await frame
        .locator('h1')
        .filter({ hasText: 'Add the login form' })
        .waitFor({ state: 'visible', timeout: 20_000 });
      await frame.getByRole('progressbar').waitFor({ state: 'visible' });
      assert.equal(await frame.getByRole('progressbar').getAttribute('aria-valuenow'), '40');
      await shot('status-bar-task-detail-running');
    });

    it('notifies when the agent asks for human review, and "Open Task" opens the detail', async () => {
      await wb.runCommand('View: Close All Editors');
      await wb.page.locator('iframe.webview').first().waitFor({ state: 'detached', timeout: 10_000 });
      writeFiles(ws, {
        'src/app.ts': 'export function greet(name: string): string {\n  return `Welcome back, ${name}!`;\n}\n',
        'src/login.ts': 'export const login = () => fetch("/login");\n',
        'notes.txt': 'scratch notes outside the declared area\n',
      });
      rmSync(file('docs/old.md'));
      await agent!.call('log_decision', {
        task_id: taskId,
        category: 'library_choice',
        question: 'Which form library?',
        options_considered: ['none', 'react-hook-form'],
        chosen: 'none',
        reasoning: 'Two fields do not need a library',
        trade_offs: 'Validation by hand',
      });
      await agent!.call('log_issue', {
        task_id: taskId,
        type: 'unclear_requirement',
        description: 'Should "remember me" be offered?',
        resolution: 'Left out for now',
        requires_human_review: true,
      });
      const toast = await wb.waitForNotification(/asks for human review on task-\d+ "Add the login form"/, 10_000);
      await shot('notification-human-review');
      await toast.getByRole('button', { name: 'Open Task' }).click();
      await webviewFrame(wb.page)
        .locator('h1')
        .filter({ hasText: 'Add the login form' })
        .waitFor({ state: 'visible', timeout: 20_000 });
    });

    it('shows the finished task: outcome, timeline, files grouped with scope warnings', async () => {
      await agent!.call('complete_task', {
        task_id: taskId,
        status: 'partial_success',
        outcome: {
          summary: 'The login form posts to /login.',
          achievements: ['Form', 'Greeting'],
          limitations: ['No remember-me'],
          manual_review_needed: true,
          manual_review_reason: 'Check the wording',
        },
      });
      await wb.waitForNotification(/finished \(partial success\) and needs manual review/, 10_000);
      await wb.page
        .locator('.part.statusbar .statusbar-item')
        .filter({ hasText: 'Add the login form' })
        .waitFor({ state: 'hidden', timeout: 5_000 });
      const frame = webviewFrame(wb.page);
      await frame
        .locator('[data-testid=status]')
        .filter({ hasText: 'partial success' })
        .waitFor({ state: 'visible', timeout: 10_000 });
      const text = await frame.locator('body').innerText();
      for (const expected of [
        'The login form posts to /login.',
        'Manual review needed: Check the wording',
        'Which form library?',
        'Two fields do not need a library',
        'Should "remember me" be offered?',
        'Form markup written',
        'Added (2)',
        'Modified (1)',
        'Deleted (1)',
        'outside declared scope',
      ]) {
        assert.ok(text.includes(expected), `the detail lacks "${expected}":\n${text}`);
      }
      assert.deepEqual(
        await frame.locator('a.file').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))),
        ['notes.txt', 'src/login.ts', 'src/app.ts', 'docs/old.md'],
      );
      await shot('task-detail-webview');
    });

    it('opens VS Code’s diff editor (snapshot ↔ now) from a file in the webview', async () => {
      await webviewFrame(wb.page).locator('a.file[data-path="src/app.ts"]').click();
      await activeTab(wb.page)
        .filter({ hasText: /app\.ts \(task-\d+ snapshot ↔ now\)/ })
        .waitFor({ state: 'visible', timeout: 15_000 });
      const diff = wb.page.locator('.part.editor .monaco-diff-editor').first();
      await diff.waitFor({ state: 'visible' });
      await eventually('both sides of the diff', async () => {
        const original = editorText(await diff.locator('.editor.original .view-lines').innerText());
        const modified = editorText(await diff.locator('.editor.modified .view-lines').innerText());
        return original.includes('Hello, ${name}') && modified.includes('Welcome back') ? true : undefined;
      });
      await shot('diff-editor');
    });

    it('rewinds the task to its snapshot after a confirmation that lists the files, and undoes it', async () => {
      // Back to the detail (the diff took its place in the group).
      await treeRow(wb.page, /Add the login form/).click();
      await webviewFrame(wb.page).getByRole('button', { name: 'Rewind…' }).click();
      const confirmation = await clickDialogButton(wb.page, 'Rewind');
      for (const p of ['docs/old.md', 'notes.txt', 'src/app.ts', 'src/login.ts'])
        assert.ok(confirmation.includes(p), `the confirmation does not list ${p}:\n${confirmation}`);
      await eventually(
        'the files to be rewound',
        () =>
          readFileSync(file('src/app.ts'), 'utf8') === initialFiles['src/app.ts'] &&
          !existsSync(file('src/login.ts')) &&
          existsSync(file('docs/old.md')),
      );
      assert.equal(readFileSync(file('docs/old.md'), 'utf8'), initialFiles['docs/old.md']);
      assert.equal(existsSync(file('notes.txt')), false);
      await webviewFrame(wb.page)
        .getByRole('button', { name: 'Undo Rewind' })
        .waitFor({ state: 'visible', timeout: 10_000 });
      await shot('after-rewind');

      await wb.runCommand('Agent Ledger: Undo Rewind');
      await wb.quickPickItem('Add the login form').click();
      await clickDialogButton(wb.page, 'Undo Rewind');
      await eventually(
        'the rewind to be undone',
        () =>
          readFileSync(file('src/app.ts'), 'utf8').includes('Welcome back') &&
          existsSync(file('src/login.ts')) &&
          !existsSync(file('docs/old.md')) &&
          existsSync(file('notes.txt')),
      );
    });

    it('approves the review in the task detail, with a note: recorded as the person, the page updates live', async () => {
      const frame = webviewFrame(wb.page);
      const review = frame.locator('[data-testid=review]');
      await review.waitFor({ state: 'visible', timeout: 10_000 });
      const asked = await review.innerText();
      assert.ok(asked.includes('Manual review needed: Check the wording'), asked);
      assert.ok(asked.includes('Review requested: Should "remember me" be offered?'), asked);
      await review.getByRole('textbox', { name: 'Review note (optional)' }).fill('Wording checked with the team');
      await shot('task-detail-review');
      await review.getByRole('button', { name: 'Approve', exact: true }).click();
      await review.waitFor({ state: 'detached', timeout: 10_000 });
      const got = JSON.parse(await ledgerCli(pkg().unpackedDir, ws, 'task', 'get', taskId, '--json')) as {
        completionReview: { verdict: string; note: string; reviewedBy: string } | null;
      };
      assert.deepEqual(
        [got.completionReview?.verdict, got.completionReview?.note, got.completionReview?.reviewedBy],
        ['approved', 'Wording checked with the team', os.userInfo().username],
      );
    });

    it('shows a task the CLI creates from outside, live', async () => {
      const shown = await watchSidebarRow(wb.page, /Write the release notes.*@docs-bot/);
      const before = Date.now();
      await ledgerCli(pkg().unpackedDir, ws, 'task', 'create', 'Write the release notes', '--assignee', 'docs-bot');
      const exited = Date.now();
      const seen = await shown();
      liveTimings.push({
        step: `CLI task create (the process ran ${exited - before} ms) → Tasks view`,
        ms: seen - exited,
      });
      assert.ok(seen - exited < 1_000, `the view showed the CLI's task ${seen - exited} ms after the CLI exited`);
      await treeRow(wb.page, 'Tasks without a workflow').waitFor({ state: 'visible', timeout: 2_000 });
      await shot('tasks-view-cli-write');
    });

    it('shows a held task with Resume in its detail; Resume lets it run again', async () => {
      const notes = JSON.parse(await ledgerCli(pkg().unpackedDir, ws, 'task', 'list', '--json')) as {
        tasks: { id: number; title: string }[];
      };
      const id = String(notes.tasks.find((t) => t.title === 'Write the release notes')!.id);
      await ledgerCli(pkg().unpackedDir, ws, 'task', 'hold', id);
      await treeRow(wb.page, /Write the release notes/).click();
      const frame = webviewFrame(wb.page);
      await frame
        .locator('h1')
        .filter({ hasText: 'Write the release notes' })
        .waitFor({ state: 'visible', timeout: 20_000 });
      const held = frame.locator('[data-testid=held]');
      await held.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await held.innerText(), new RegExp(`Held — stopped by ${os.userInfo().username}`));
      await shot('task-detail-held');
      await held.getByRole('button', { name: 'Resume', exact: true }).click();
      await held.waitFor({ state: 'detached', timeout: 10_000 });
      const got = JSON.parse(await ledgerCli(pkg().unpackedDir, ws, 'task', 'get', id, '--json')) as { hold: unknown };
      assert.equal(got.hold, null);
    });

    it('exports the workflow report as Markdown', async () => {
      await wb.runCommand('Agent Ledger: Export Workflow Report');
      await wb.quickPickItem('Login page').click();
      await activeTab(wb.page)
        .filter({ hasText: /Untitled/ })
        .waitFor({ state: 'visible', timeout: 10_000 });
      const text = editorText(await wb.page.locator('.part.editor .monaco-editor .view-lines').first().innerText());
      assert.ok(text.includes('# Login page'), text);
      await shot('workflow-report');
    });

    it('adds the server to Claude Code, Cursor and Claude Desktop, keeping what the files held', async () => {
      await wb.runCommand('Agent Ledger: Add to Claude Code (.mcp.json)');
      await wb.waitForNotification(/Added "agent-ledger" in \.mcp\.json \(kept 1 other server\)/);
      const claude = JSON.parse(readFileSync(file('.mcp.json'), 'utf8'));
      assert.deepEqual(Object.keys(claude.mcpServers), ['other', 'agent-ledger']);
      assert.deepEqual(claude.mcpServers.other, JSON.parse(initialFiles['.mcp.json']).mcpServers.other);
      const cli = path.join(installedExtensionDir(server.extensionsDir, pkg()), 'dist', 'cli.js');
      assert.deepEqual(claude.mcpServers['agent-ledger'], {
        command: 'node',
        args: ['--max-semi-space-size=1', cli, 'mcp', 'serve', '--workspace', ws],
      });

      await wb.runCommand('Agent Ledger: Add to Cursor (.cursor/mcp.json)');
      await eventually('.cursor/mcp.json', () => existsSync(file('.cursor/mcp.json')));
      assert.deepEqual(JSON.parse(readFileSync(file('.cursor/mcp.json'), 'utf8')).mcpServers['agent-ledger'].args, [
        '--max-semi-space-size=1',
        cli,
        'mcp',
        'serve',
        '--workspace',
        ws,
      ]);

      await wb.runCommand('Agent Ledger: Add to Claude Desktop');
      const desktop = await eventually(
        'the Claude Desktop entry',
        () =>
          JSON.parse(readFileSync(path.join(desktopDir, 'claude_desktop_config.json'), 'utf8')).mcpServers[
            `agent-ledger-${path.basename(ws)}`
          ],
      );
      assert.deepEqual(desktop.args, ['--max-semi-space-size=1', cli, 'mcp', 'serve', '--workspace', ws]);
      assert.ok(path.isAbsolute(desktop.command));
      await shot('registration');
    });

    it('copies the MCP server command to the clipboard', async () => {
      await wb.runCommand('Agent Ledger: Copy MCP Server Command');
      const line = await eventually('the clipboard', async () => {
        const text = await wb.page.evaluate(() => navigator.clipboard.readText());
        return text.includes('mcp serve') ? text : undefined;
      });
      assert.ok(line.endsWith(`mcp serve --workspace ${ws}`), line);
    });

    // Last: the walkthrough's page keeps the quick input unstable for the steps after it.
    it('ticks the walkthrough’s steps from what was done in the webview, not the palette', async () => {
      await wb.runCommand('Agent Ledger: Get Started');
      const walkthrough = wb.page.locator('.part.editor').filter({ hasText: 'Get Started with Agent Ledger' });
      await walkthrough.waitFor({ state: 'visible', timeout: 30_000 });
      // The diff opened from a file of the task detail; the review approved with its button.
      // The Tasks view was open before the agent's first task came; it showed the task.
      for (const step of ['watchTask', 'openChanges', 'approveCheckpoint'])
        await walkthrough
          .locator(`button.getting-started-step[data-step-id$="${step}"][aria-checked="true"]`)
          .waitFor({ state: 'attached', timeout: 10_000 });
      await shot('walkthrough-ticked');
    });
  });
}
