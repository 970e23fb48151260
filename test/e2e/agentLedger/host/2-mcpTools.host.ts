// Copilot's path: VS Code lists and starts our MCP server, and vscode.lm.invokeTool reaches the
// tracking tools; the Tasks view, the status bar and the task detail show what they recorded.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { api, folder, invoke, ledgerTools, sleep, startLedgerServer, treeText, until } from './hostHelpers';

describe('the MCP server through VS Code (Copilot’s path)', () => {
  let workflowId = '';
  let taskId = '';
  let taskNumber = 0;

  it('is started by VS Code and publishes the default tool families', async function () {
    this.timeout(90_000);
    const tools = await startLedgerServer();
    for (const name of ['mcp_info', 'start_workflow', 'start_task', 'log_milestone', 'complete_task', 'task_list']) {
      assert.ok(tools.has(name), `${name} missing; have ${[...tools.keys()].join(', ')}`);
    }
  });

  it('start_workflow, start_task and log_milestone show in the view and the status bar within a second', async () => {
    ({ workflow_id: workflowId } = await invoke<{ workflow_id: string }>('start_workflow', {
      name: 'Checkout flow',
      description: 'Add a checkout page',
    }));
    ({ task_id: taskId } = await invoke<{ task_id: string }>('start_task', {
      workflow_id: workflowId,
      name: 'Build the cart',
      goal: 'A cart that sums prices',
      areas: ['src'],
    }));
    taskNumber = Number(taskId.replace('task-', ''));
    await invoke('log_milestone', { task_id: taskId, message: 'Cart model written', progress: 40 });
    const view = await until(
      'the task in the Tasks view',
      async () => /Build the cart — in progress 40% · task-/.test(await treeText()),
      1_000,
    );
    assert.ok(view.ms < 1_000);
    const text = await treeText();
    assert.match(text, /^Checkout flow — wf-\d+ · 1 running/m);
    assert.match(text, /^ {2}Build the cart — in progress 40% · task-\d+ · \d+s/m);
    const expected = `$(circle-filled) ${taskId} Build the cart · 40% — Cart model written`;
    await until(
      `the status bar to read "${expected}"`,
      async () => (await api()).testing.statusBarText() === expected,
      1_000,
    );
  });

  it('opens the task detail webview, which renders the timeline', async () => {
    const target = await vscode.commands.executeCommand<{ folder: string; taskId: number }>('agentLedger.openTask', {
      folder: folder(),
      taskId,
    });
    assert.deepEqual(target, { folder: folder(), taskId: taskNumber });
    // The model is posted only after the webview's script ran and said `ready`.
    const { value: model } = await until(
      'the detail model',
      async () => (await api()).testing.taskDetail(folder(), taskNumber),
      15_000,
    );
    assert.equal(model.task.title, 'Build the cart');
    assert.equal(model.workflow?.name, 'Checkout flow');
    assert.deepEqual(
      model.timeline.map((t) => [t.kind, t.title]),
      [['milestone', 'Cart model written']],
    );
    assert.equal(model.filesSource, 'live');
  });

  it('complete_task records the files; the view, status bar and detail follow', async () => {
    writeFileSync(
      path.join(folder(), 'src', 'cart.ts'),
      'export const total = (p: number[]) => p.reduce((a, b) => a + b, 0);\n',
    );
    writeFileSync(path.join(folder(), 'notes.txt'), 'outside the declared areas\n');
    const done = await invoke<{ files_changed: { added: string[] }; verification: { scope_match: boolean } }>(
      'complete_task',
      {
        task_id: taskId,
        status: 'success',
        outcome: { summary: 'The cart sums prices.', achievements: ['cart.ts'] },
      },
    );
    assert.deepEqual(done.files_changed.added, ['notes.txt', 'src/cart.ts']);
    assert.equal(done.verification.scope_match, false);
    await until(
      'the finished task in the view',
      async () => /Build the cart — ⚠ out of scope · done · task-\d+ · \d+s/.test(await treeText()),
      1_000,
    );
    await until('the status bar to clear', async () => (await api()).testing.statusBarText() === undefined, 1_000);
    const { value: model } = await until('the detail to show the recorded files', async () => {
      const m = (await api()).testing.taskDetail(folder(), taskNumber);
      return m?.filesSource === 'recorded' ? m : undefined;
    });
    assert.equal(model.task.status, 'done');
    assert.deepEqual(
      model.files.map((f) => [f.kind, f.path, f.outOfScope]),
      [
        ['added', 'notes.txt', true],
        ['added', 'src/cart.ts', false],
      ],
    );
    assert.equal(model.outcome?.summary, 'The cart sums prices.');
    assert.match(model.warnings[0], /outside declared scope/);
  });

  it('exports the workflow report as a Markdown document', async () => {
    const report = await vscode.commands.executeCommand<{ workflow: string; text: string }>(
      'agentLedger.exportWorkflowReport',
      { folder: folder(), workflowId },
    );
    assert.equal(report.workflow, workflowId);
    assert.match(report.text, /^# Checkout flow/);
    assert.match(report.text, /### ✅ Build the cart/);
    assert.match(report.text, /- added: `notes\.txt`, `src\/cart\.ts`/);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.languageId, 'markdown');
    assert.equal(editor?.document.getText(), report.text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('follows agentLedger.toolFamilies: the definition changes and a restart serves the new families', async function () {
    this.timeout(90_000);
    assert.ok(ledgerTools().has('pipeline_init'));
    const config = vscode.workspace.getConfiguration('agentLedger');
    // VS Code names a provider's server `<extension id>/<label>`.
    const serverId = 'agent-ledger.agent-ledger/Agent Ledger';
    await config.update('toolFamilies', ['tracking', 'tasks'], vscode.ConfigurationTarget.Global);
    try {
      await until(
        'the pipeline tools to go after a restart',
        async () => {
          await Promise.race([
            vscode.commands.executeCommand('workbench.mcp.restartServer', serverId, { autoTrustChanges: true }),
            sleep(10_000),
          ]);
          await Promise.race([
            vscode.commands.executeCommand('workbench.mcp.startServer', serverId, { waitForLiveTools: true }),
            sleep(10_000),
          ]);
          const tools = ledgerTools();
          return tools.has('start_workflow') && !tools.has('pipeline_init');
        },
        60_000,
      );
    } finally {
      await config.update('toolFamilies', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
