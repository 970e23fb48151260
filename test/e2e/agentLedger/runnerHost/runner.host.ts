// In the extension host (see test/e2e/runner.e2e.ts for the set-up): projects `web` with coder and
// reviewer, a task in progress for each, the scripted `claude` on PATH.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { alive } from '../../../helpers/processes';
import { api, folder, until } from '../host/hostHelpers';

const agentsText = async (): Promise<string> => (await (await api()).testing.agentsView()).join('\n');

describe('the runner in the editor', () => {
  it('starts from the command, shows instances, handoffs, costs and a live log, stops an instance and stops with the status bar', async function () {
    this.timeout(240_000);
    const { testing } = await api();
    const ws = folder();
    await until(
      'the runner entry in the status bar',
      () => testing.runnerStatusBarText() === '$(debug-start) Runner',
      30_000,
    );

    // The scripted `claude` first on the PATH the runner passes to the agents it launches.
    if (process.env.AGENT_LEDGER_E2E_PATH) process.env.PATH = process.env.AGENT_LEDGER_E2E_PATH;
    await vscode.commands.executeCommand('agentLedger.startRunner', { folder: ws });
    const pid = testing.runnerPid(ws);
    assert.ok(pid && alive(pid), 'the runner runs as a child process of the window');

    // The reviewer reports at once (with its cost); the coder hands its task over and keeps running
    // (its handoff can land a moment after the reviewer's report: both are waited for).
    await until(
      'one agent running, the other done, the handoff pending',
      async () => {
        if (testing.runnerStatusBarText() !== '$(sync~spin) Runner: 1 agent running') return false;
        const text = await agentsText();
        return /reviewer — .*\$0\.0421 over 1 run/.test(text) && /^Pending handoffs \(1\)$/m.test(text);
      },
      90_000,
    );
    const rows = await agentsText();
    assert.match(rows, /^Running instances \(1\)$/m);
    assert.match(rows, /^ {2}coder — web · task-\d+ Login form · since \d\d:\d\d · pid \d+$/m, rows);
    assert.match(rows, /^Pending handoffs \(1\)$/m);
    assert.match(
      rows,
      /^ {2}coder → any agent — task-\d+ Login form · Form done; someone please review · \d\d:\d\d$/m,
      rows,
    );
    assert.match(
      rows,
      /^ {4}exec-\d+ — task-\d+ · completed · exit 0 · \$0\.0421 · 1\.2k tokens in · /m,
      'the reviewer’s run with its cost',
    );
    const coderRun = /^ {4}(exec-\d+) — task-\d+ · running/m.exec(rows)?.[1];
    assert.ok(coderRun, rows);

    // Its log in a tab, following the live log.
    await vscode.commands.executeCommand('agentLedger.openExecutionLog', { folder: ws, executionId: coderRun });
    await until(
      'the tab to show the first line',
      () => testing.executionLogText(ws, coderRun)?.includes('first line of the coder'),
      30_000,
    );
    assert.ok(
      vscode.window.activeTextEditor?.document.uri.toString().includes(`${coderRun}.log`),
      'the log is the active tab',
    );
    await until(
      'the tab to follow the second line, printed seconds later',
      () => vscode.window.activeTextEditor?.document.getText().includes('second line of the coder'),
      30_000,
    );

    // Stop Instance: the coder ends, its execution log says how, the view follows.
    await vscode.commands.executeCommand('agentLedger.stopInstance', { folder: ws, executionId: coderRun });
    await until('the instance to leave the view', async () => !/^Running instances/m.test(await agentsText()), 30_000);
    await until(
      'the coder’s run to end as stopped (a person’s stop, not an error)',
      async () => new RegExp(`^ {4}${coderRun} — task-\\d+ · stopped · SIGTERM`, 'm').test(await agentsText()),
      30_000,
    );
    await until(
      'the status bar to say polling',
      () => testing.runnerStatusBarText() === '$(radio-tower) Runner: polling',
      30_000,
    );
    await until(
      'the tab to say the run ended',
      () => vscode.window.activeTextEditor?.document.getText().includes('# the run has ended'),
      30_000,
    );

    // A click on the status bar item stops the runner.
    await vscode.commands.executeCommand('agentLedger.toggleRunner');
    await until(
      'the status bar to say stopped',
      () => testing.runnerStatusBarText() === '$(debug-start) Runner',
      30_000,
    );
    await until('the runner process to be gone', () => !alive(pid), 30_000);
    assert.equal(testing.runnerPid(ws), undefined);
  });
});
