// A person's session with the Memory Bank and Agents & Sessions views, the VSIX installed and the
// workbench driven like a person: an entry added from the palette, a hand edit showing up, Archive
// from the view; a task created from the palette (then in the Tasks view and `agent-ledger task
// get`) and edited from its context menu; a session worker_command started through the CLI shown
// with its branch, its worktree opened in a new window, the session ended from the view, the
// worktree cleaned up after a dry-run confirmation. Screenshots land in
// test-results/e2e/screenshots/agent-ledger-*.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrowserSession, Workbench } from '../harness/browser';
import { CodeServer } from '../harness/codeServer';
import type { PackagedExtension } from './extensionPackage';
import { ledgerCli } from './outsideAgent';
import { createWorkspace } from './workspace';
import { liveTimings } from './uiJourney';
import { activeTab, clickDialogButton, eventually, treeRow } from './workbenchLedger';
import {
  answerPick,
  answerText,
  clickPaneAction,
  clickRowAction,
  collapsePane,
  contextMenu,
  expandPane,
  formDone,
  inputMessage,
  paneRow,
  widenSideBar,
} from './workbenchForms';

export function describeMemoryAgentsJourney(pkg: () => PackagedExtension): void {
  describe(
    'Memory Bank and Agents & Sessions in the workbench (VSIX installed, driven like a person)',
    { timeout: 300_000 },
    () => {
      let server: CodeServer;
      let browser: BrowserSession;
      let wb: Workbench;
      let ws = '';
      let taskId = 0;
      let branch = '';
      const shot = (name: string): Promise<string> => wb.screenshot(`agent-ledger-${name}`);
      const file = (p: string): string => path.join(ws, p);
      const cli = async <T>(...args: string[]): Promise<T> =>
        JSON.parse(await ledgerCli(pkg().unpackedDir, ws, ...args, '--json')) as T;

      before(async () => {
        ws = createWorkspace('al-e2e-memory-', false);
        server = CodeServer.create({ name: 'agent-ledger-memory-agents' });
        await server.installExtension(pkg().vsixPath);
        await server.start();
        browser = await BrowserSession.launch({ consoleLogFile: path.join(server.runDir, 'browser-console.log') });
        wb = await Workbench.open(await browser.page(), server.workbenchUrl(ws));
        await wb.openViewContainer('Agent Ledger');
        // Room for whole rows in the screenshots: a wider side bar, the Pipelines pane folded.
        await widenSideBar(wb.page, 560);
        await collapsePane(wb.page, 'Pipelines');
      });

      after(async () => {
        await wb?.screenshot('agent-ledger-memory-agents-final').catch(() => undefined);
        await browser?.close();
        await server?.stop();
        if (ws) rmSync(ws, { recursive: true, force: true });
      });

      it('adds a Memory Bank entry from the palette: the file is written and shows in the view', async () => {
        const memory = await expandPane(wb.page, 'Memory Bank');
        const welcome = memory
          .locator('.welcome-view-content')
          .filter({ hasText: 'Project decisions every agent is given' });
        await welcome
          .getByRole('button', { name: 'Add Entry', exact: true })
          .waitFor({ state: 'visible', timeout: 30_000 });
        const agents = await expandPane(wb.page, 'Agents & Sessions');
        await agents
          .locator('.welcome-view-content')
          .filter({ hasText: 'No agent session yet' })
          .getByRole('button', { name: 'Create Task', exact: true })
          .waitFor({ state: 'visible', timeout: 15_000 });
        await wb.runCommand('Agent Ledger: Add Memory Bank Entry');
        // A fresh ledger has no category yet: the first question is typed.
        await answerText(wb.page, 'Category: the folder the entry goes in', 'tooling');
        await answerText(wb.page, 'Title', 'Test framework');
        // The id is proposed from the title; a refused one says why with memory_add's words.
        await inputMessage(wb.page).filter({ hasText: 'Id: the file name' }).waitFor({ state: 'visible' });
        await wb.page.locator('.quick-input-widget .quick-input-box input').fill('test framework');
        await inputMessage(wb.page)
          .filter({ hasText: 'id: must be a plain name of letters, digits' })
          .waitFor({ state: 'visible' });
        await answerText(wb.page, 'id: must be a plain name', 'test-framework');
        await answerText(wb.page, 'Summary (optional)', 'Vitest: fast, Vite compatible');
        await answerPick(wb.page, 'Status', 'active');
        await formDone(wb.page);
        await activeTab(wb.page)
          .filter({ hasText: 'test-framework.md' })
          .waitFor({ state: 'visible', timeout: 15_000 });
        await paneRow(wb.page, 'Memory Bank', /Test framework.*Vitest: fast, Vite compatible/).waitFor({
          state: 'visible',
          timeout: 10_000,
        });
        await paneRow(wb.page, 'Memory Bank', /tooling.*1 entry/).waitFor({ state: 'visible' });
        assert.equal(
          readFileSync(file('.agent-ledger/memory/tooling/test-framework.md'), 'utf8'),
          '---\ntitle: Test framework\nsummary: "Vitest: fast, Vite compatible"\nstatus: active\n---\n',
        );
        const listed = await cli<{ memories: { id: string; status: string }[] }>('memory', 'list');
        assert.deepEqual(
          listed.memories.map((m) => [m.id, m.status]),
          [['test-framework', 'active']],
        );
      });

      it('shows entries edited and added by hand without any reload', async () => {
        const start = Date.now();
        writeFileSync(
          file('.agent-ledger/memory/tooling/test-framework.md'),
          '---\ntitle: Test framework\nsummary: Vitest with coverage\nstatus: active\n---\n\nEdited by hand.\n',
        );
        mkdirSync(file('.agent-ledger/memory/rule'), { recursive: true });
        writeFileSync(
          file('.agent-ledger/memory/rule/tests-required.md'),
          '---\ntitle: Tests required\nsummary: Every bug fix adds a regression test\nstatus: draft\n---\n',
        );
        await paneRow(wb.page, 'Memory Bank', /Test framework.*Vitest with coverage/).waitFor({
          state: 'visible',
          timeout: 10_000,
        });
        await paneRow(wb.page, 'Memory Bank', /Tests required.*draft · Every bug fix adds a regression test/).waitFor({
          state: 'visible',
          timeout: 10_000,
        });
        liveTimings.push({ step: 'hand edit of two Memory Bank files → Memory Bank view', ms: Date.now() - start });
        await shot('memory-bank-view');
      });

      it('archives an entry from the view: `status: archived` in its front matter', async () => {
        await clickRowAction(paneRow(wb.page, 'Memory Bank', /Test framework/), 'Archive Memory Bank Entry');
        await paneRow(wb.page, 'Memory Bank', /Test framework.*archived · Vitest with coverage/).waitFor({
          state: 'visible',
          timeout: 10_000,
        });
        assert.equal(
          readFileSync(file('.agent-ledger/memory/tooling/test-framework.md'), 'utf8'),
          '---\ntitle: Test framework\nsummary: Vitest with coverage\nstatus: archived\n---\n\nEdited by hand.\n',
        );
      });

      it('opens an entry’s Markdown file on click', async () => {
        await wb.runCommand('View: Close All Editors');
        await paneRow(wb.page, 'Memory Bank', /Tests required/).click();
        await activeTab(wb.page)
          .filter({ hasText: 'tests-required.md' })
          .waitFor({ state: 'visible', timeout: 10_000 });
      });

      it('creates a task from the palette: in the Tasks view and in `agent-ledger task get`', async () => {
        await wb.runCommand('Agent Ledger: Create Task');
        await inputMessage(wb.page).filter({ hasText: 'Title of the task' }).waitFor({ state: 'visible' });
        // task_create's own words for an empty title.
        await wb.page.locator('.quick-input-widget .quick-input-box input').fill('   ');
        await inputMessage(wb.page).filter({ hasText: 'title: must not be empty' }).waitFor({ state: 'visible' });
        await shot('create-task-validation');
        await answerText(wb.page, 'title: must not be empty', 'Fix the login redirect');
        await answerText(
          wb.page,
          'Description (optional)',
          'After login, users land on / instead of the page they asked for.',
        );
        await answerPick(wb.page, 'Priority', 'high');
        await answerPick(wb.page, 'Kind of task', 'bug');
        await answerPick(wb.page, 'Assign to', 'coder');
        await answerText(wb.page, 'Labels (optional), comma-separated', 'auth, backend');
        await formDone(wb.page);
        const row = await eventually('the task in the Tasks view', async () => {
          const text = await paneRow(wb.page, 'Tasks', /Fix the login redirect/).innerText({ timeout: 1_000 });
          return /task-\d+ · high · bug · @coder · auth, backend/.test(text) ? text : undefined;
        });
        taskId = Number(/task-(\d+)/.exec(row)![1]);
        const task = await cli<Record<string, unknown>>('task', 'get', String(taskId));
        assert.deepEqual(
          [
            task.title,
            task.description,
            task.status,
            task.priority,
            task.type,
            task.assigneeName,
            task.assigneeType,
            task.labels,
          ],
          [
            'Fix the login redirect',
            'After login, users land on / instead of the page they asked for.',
            'open',
            'high',
            'bug',
            'coder',
            'ai',
            ['auth', 'backend'],
          ],
        );
      });

      it('edits the task from its context menu in the Tasks view', async () => {
        await contextMenu(wb.page, paneRow(wb.page, 'Tasks', /Fix the login redirect/), 'Edit Task');
        await answerPick(wb.page, 'Change which field?', 'Priority');
        await answerPick(wb.page, 'New priority', 'critical');
        await formDone(wb.page);
        await paneRow(wb.page, 'Tasks', new RegExp(`Fix the login redirect.*task-${taskId} · critical · bug`)).waitFor({
          state: 'visible',
          timeout: 10_000,
        });
        assert.equal((await cli<{ priority: string }>('task', 'get', String(taskId))).priority, 'critical');
      });

      it('shows the session worker_command starts through the CLI, with its branch', async () => {
        await expandPane(wb.page, 'Agents & Sessions');
        const start = Date.now();
        await ledgerCli(pkg().unpackedDir, ws, 'worker', 'command', String(taskId));
        const exited = Date.now();
        const { sessions } = await cli<{ sessions: { id: number; branch: string }[] }>(
          'session',
          'list',
          '--task',
          String(taskId),
        );
        branch = sessions[0].branch;
        assert.equal(branch, `task-${taskId}-s${sessions[0].id}`);
        await paneRow(
          wb.page,
          'Agents & Sessions',
          new RegExp(`Fix the login redirect.*task-${taskId} · running · ${branch} · since`),
        ).waitFor({ state: 'visible', timeout: 10_000 });
        liveTimings.push({
          step: `CLI worker command (the process ran ${exited - start} ms) → Agents & Sessions view`,
          ms: Date.now() - exited,
        });
        await paneRow(wb.page, 'Agents & Sessions', /coder.*claude-code · sonnet · 1 running/).waitFor({
          state: 'visible',
        });
        await shot('agents-sessions-view');
      });

      it('opens the session’s worktree in a new window', async () => {
        const worktree = file(`.agent-ledger/worktrees/task-${taskId}`);
        assert.ok(existsSync(worktree));
        const opened = browser.context.waitForEvent('page', { timeout: 30_000 });
        await clickRowAction(
          paneRow(wb.page, 'Agents & Sessions', /Fix the login redirect/),
          'Open Worktree in New Window',
        );
        const popup = await opened;
        // The new window is a workbench on the worktree folder (code-server puts it in the URL).
        await popup.waitForURL(/folder=/, { timeout: 30_000 });
        assert.ok(decodeURIComponent(popup.url()).includes(worktree), popup.url());
        const other = new Workbench(popup);
        await popup.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
        // Its Explorer lists the worktree's checkout of the repository.
        await other.openViewContainer('Explorer');
        await popup
          .locator('.part.sidebar .monaco-list-row')
          .filter({ hasText: 'README.md' })
          .waitFor({ state: 'visible', timeout: 30_000 });
        await other.screenshot('agent-ledger-worktree-window');
        await popup.close();
      });

      it('ends the session from the view: exit code and Definition of Done asked, the task follows', async () => {
        await clickRowAction(paneRow(wb.page, 'Agents & Sessions', /Fix the login redirect/), 'End Session');
        await answerText(wb.page, 'Exit code of the worker process', '0');
        await answerPick(wb.page, 'Definition of Done result', 'merged');
        await formDone(wb.page);
        await paneRow(
          wb.page,
          'Agents & Sessions',
          new RegExp(`Fix the login redirect.*task-${taskId} · completed · exit 0 · merged · ${branch} · ended`),
        ).waitFor({ state: 'visible', timeout: 10_000 });
        await paneRow(wb.page, 'Tasks', /Fix the login redirect/)
          .locator('.codicon-pass')
          .waitFor({ state: 'visible', timeout: 10_000 });
        const { sessions } = await cli<{ sessions: { status: string; exitCode: number; dodResult: string }[] }>(
          'session',
          'list',
          '--task',
          String(taskId),
        );
        assert.deepEqual([sessions[0].status, sessions[0].exitCode, sessions[0].dodResult], ['completed', 0, 'merged']);
      });

      it('shows a session whose shell is gone as stale, without a spinner, and ends it from the view', async () => {
        const { id } = await cli<{ id: number }>('task', 'create', 'Probe a stale session');
        // The shell that ran the CLI exits right after (`; true` keeps it the CLI's parent until then).
        const shell = spawnSync(
          'sh',
          [
            '-c',
            '"$0" "$1" session start "$2" --agent reviewer --workspace "$3" --json; true',
            process.execPath,
            path.join(pkg().unpackedDir, 'dist', 'cli.js'),
            String(id),
            ws,
          ],
          { encoding: 'utf8' },
        );
        assert.equal(shell.status, 0, shell.stderr);
        const row = paneRow(wb.page, 'Agents & Sessions', /Probe a stale session.*stale: its process is gone/);
        await row.waitFor({ state: 'visible', timeout: 15_000 });
        assert.equal(await row.locator('.codicon-modifier-spin').count(), 0);
        await row.locator('.codicon-debug-disconnect').waitFor({ state: 'visible' });
        // The agent's row counts it stale, never running: by the same look that showed the session
        // stale, or the next one (the row may have been read while the shell still ran).
        await paneRow(wb.page, 'Agents & Sessions', /^reviewer.*· 1 stale ·/).waitFor({
          state: 'visible',
          timeout: 15_000,
        });
        const agentRow = paneRow(wb.page, 'Agents & Sessions', /^reviewer/);
        assert.doesNotMatch(await agentRow.innerText(), /running/);
        await shot('agents-stale-session');
        await clickRowAction(row, 'End Session');
        await answerText(wb.page, 'Exit code of the worker process', '1');
        await answerPick(wb.page, 'Definition of Done result', 'No result');
        await formDone(wb.page);
        await paneRow(
          wb.page,
          'Agents & Sessions',
          new RegExp(`Probe a stale session.*task-${id} · failed · exit 1`),
        ).waitFor({ state: 'visible', timeout: 10_000 });
        const { sessions } = await cli<{ sessions: { status: string; liveness?: string; endedBy?: string }[] }>(
          'session',
          'list',
          '--task',
          String(id),
        );
        assert.deepEqual(
          [sessions[0].status, sessions[0].liveness, sessions[0].endedBy],
          ['failed', undefined, os.userInfo().username],
          'ended by the person at the editor',
        );
        assert.doesNotMatch(await agentRow.innerText(), /stale/);
      });

      it('cleans up worktrees after a dry run that lists them and the disk they free', async () => {
        const worktree = file(`.agent-ledger/worktrees/task-${taskId}`);
        await clickPaneAction(wb.page, 'Agents & Sessions', 'Clean Up Worktrees');
        await wb.page.locator('.monaco-dialog-box').waitFor({ state: 'visible', timeout: 15_000 });
        await shot('cleanup-confirmation');
        const confirmation = await clickDialogButton(wb.page, 'Remove 1 Worktree');
        assert.match(confirmation, /Remove 1 worktree and free \d+(\.\d)? (B|KB|MB)\?/);
        assert.ok(confirmation.includes(`.agent-ledger/worktrees/task-${taskId} — merged`), confirmation);
        await eventually('the worktree to be removed', () => !existsSync(worktree));
        await wb.waitForNotification(/Removed 1 worktree, freed/, 10_000);
        // The session stays in the record; its worktree is no longer offered.
        const row = paneRow(wb.page, 'Agents & Sessions', /Fix the login redirect/);
        await row.hover();
        await row
          .locator('.actions .action-label[aria-label^="Open Worktree in New Window"]')
          .waitFor({ state: 'detached', timeout: 10_000 });
        await treeRow(wb.page, /coder.*1 session/).waitFor({ state: 'visible' });
      });
    },
  );
}
