// The tree models of the Memory Bank, Agents & Sessions and Tasks views as plain functions, with
// literal inputs, inside the extension host (they build vscode.TreeItems).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../../../src/core/agents/agentModel';
import type { MemoryEntry } from '../../../../src/core/memory/memoryModel';
import type { Task } from '../../../../src/core/tasks/taskModel';
import type { Session } from '../../../../src/core/sessions/sessionRepo';
import { slug } from '../../../../src/vscode/commands/memoryCommands';
import { formatBytes } from '../../../../src/core/format';
import type { FolderLedger } from '../../../../src/vscode/ledger/folderLedger';
import {
  agentDescription,
  agentNodes,
  clockTime,
  sessionDescription,
  sessionItem,
} from '../../../../src/vscode/views/agents/agentItems';
import { categoryNodes, entryDescription, entryItem } from '../../../../src/vscode/views/memory/memoryItems';
import { taskIcon, workflowItem } from '../../../../src/vscode/views/tasks/taskItems';
import { taskDescription } from '../../../../src/views/taskText';
import type { WorkflowSummary } from '../../../../src/core/workflows/workflowRepo';

const ledger = { root: '/ws', name: 'ws', folder: { uri: vscode.Uri.file('/ws') } } as unknown as FolderLedger;

const entry = (
  category: string,
  id: string,
  status: MemoryEntry['status'],
  summary: string | null = null,
): MemoryEntry => ({
  id,
  category,
  title: id.toUpperCase(),
  summary,
  status,
  content: '',
  file: `.agent-ledger/memory/${category}/${id}.md`,
});

const coder = {
  name: 'coder',
  description: 'Implements',
  client: 'claude-code',
  model: 'sonnet',
  scope: { read: ['**/*'], write: ['src/**'], exclude: [] },
  permissions: { level: 'commit', commands: [], never: [] },
  config: {},
  promptContent: '',
  file: '.agent-ledger/agents/coder.yaml',
} as AgentDefinition;

const session = (over: Partial<Session>): Session => ({
  id: 12,
  taskId: 5,
  agent: 'coder',
  client: 'claude-code',
  origin: 'worker_command',
  status: 'running',
  sessionGroupId: null,
  idempotencyKey: null,
  worktree: '.agent-ledger/worktrees/task-5',
  branch: 'task-5-s12',
  scope: null,
  exitCode: null,
  signal: null,
  dodResult: null,
  artifacts: [],
  error: null,
  startedAt: '2026-03-01T14:05:00',
  endedAt: null,
  durationSeconds: null,
  endedBy: null,
  process: { machine: null, pid: null, startToken: null },
  ...over,
});

describe('Memory Bank tree model', () => {
  it('says a draft or archived entry is one before its summary', () => {
    assert.equal(entryDescription({ status: 'active', summary: 'Vitest' }), 'Vitest');
    assert.equal(entryDescription({ status: 'draft', summary: 'Vitest' }), 'draft · Vitest');
    assert.equal(entryDescription({ status: 'archived', summary: null }), 'archived');
  });

  it('groups entries and unreadable files by category folder, in order', () => {
    const nodes = categoryNodes(
      ledger,
      [entry('tooling', 'vitest', 'active'), entry('arch', 'db', 'draft')],
      [{ file: '.agent-ledger/memory/tooling/bad.md', message: 'x' }],
    );
    assert.deepEqual(
      nodes.map((n) => [n.category, n.entries.map((e) => e.id), n.problems.length]),
      [
        ['arch', ['db'], 0],
        ['tooling', ['vitest'], 1],
      ],
    );
  });

  it('opens the entry’s file on click and offers Archive only while it is not archived', () => {
    const parent = categoryNodes(ledger, [entry('tooling', 'vitest', 'draft')], [])[0];
    const item = entryItem({ kind: 'entry', ledger, entry: parent.entries[0], parent });
    assert.equal(item.command?.command, 'vscode.open');
    assert.equal((item.command?.arguments?.[0] as vscode.Uri).path, '/ws/.agent-ledger/memory/tooling/vitest.md');
    assert.equal(item.contextValue, 'memoryEntry draft');
    assert.match('memoryEntry draft', /^memoryEntry (active|draft)$/);
    assert.doesNotMatch('memoryEntry archived', /^memoryEntry (active|draft)$/);
  });

  it('proposes an id from the title', () => {
    assert.equal(slug('Test framework (v2)'), 'test-framework-v2');
    assert.equal(slug('Café — naïve rules!'), 'cafe-naive-rules');
    assert.equal(slug('テスト'), '');
  });
});

describe('Agents & Sessions tree model', () => {
  it('lists running agents first, then by their latest session, then the unused ones by name', () => {
    const nodes = agentNodes(
      ledger,
      [coder, { ...coder, name: 'alpha' }, { ...coder, name: 'zed' }],
      [
        { agent: 'zed', running: 0, stale: 1, alive: 0, total: 3, lastStartedAt: '2026-03-02T10:00:00Z' },
        { agent: 'gone', running: 1, stale: 0, alive: 1, total: 1, lastStartedAt: '2026-03-01T10:00:00Z' },
      ],
    );
    assert.deepEqual(
      nodes.map((n) => n.name),
      ['gone', 'zed', 'alpha', 'coder'],
    );
    assert.equal(agentDescription(nodes[0]), 'not defined · 1 running · 1 session');
    assert.equal(
      agentDescription(nodes[1]),
      'claude-code · sonnet · 1 stale · 3 sessions',
      'a stale session is not running',
    );
    assert.equal(agentDescription(nodes[3]), 'claude-code · sonnet');
  });

  it('describes a session by task, state, outcome, branch and clock time', () => {
    const now = new Date('2026-03-01T18:00:00');
    assert.equal(sessionDescription(session({}), now), 'task-5 · running · task-5-s12 · since 14:05');
    assert.equal(
      sessionDescription(
        session({
          status: 'failed',
          exitCode: 137,
          signal: 'SIGKILL',
          dodResult: 'timeout',
          endedAt: '2026-02-28T09:30:00',
        }),
        now,
      ),
      'task-5 · failed · exit 137 · SIGKILL · timeout · task-5-s12 · ended 2026-02-28 09:30',
    );
    assert.equal(clockTime('2026-03-01T07:04:00', now), '07:04');
  });

  it('offers End Session while running and Open Worktree while the worktree is there; a click opens the task', () => {
    const parent = agentNodes(ledger, [coder], [])[0];
    const running = sessionItem({
      kind: 'session',
      ledger,
      parent,
      item: { session: session({}), taskTitle: 'Fix it', taskStatus: 'in_progress', worktreeActive: true },
    });
    assert.equal(running.contextValue, 'session running worktree');
    assert.deepEqual(running.command?.arguments, [{ folder: '/ws', taskId: 5 }]);
    const ended = sessionItem({
      kind: 'session',
      ledger,
      parent,
      item: {
        session: session({ status: 'completed', endedAt: '2026-03-01T15:00:00' }),
        taskTitle: 'Fix it',
        taskStatus: 'done',
        worktreeActive: false,
      },
    });
    assert.equal(ended.contextValue, 'session completed');
    assert.equal(formatBytes(1536), '1.5 KB');
  });
});

describe('Tasks view: seed 002’s fields', () => {
  const base = {
    id: 9,
    status: 'open',
    result: null,
    progress: null,
    durationSeconds: null,
    startedAt: null,
    outcome: null,
    verification: null,
    assignee: null,
  } as unknown as Task;

  it('shows a priority or type other than the default, the assignee and the labels', () => {
    assert.equal(taskDescription({ ...base, priority: 'medium', type: 'task', labels: [] }), 'open · task-9');
    assert.equal(
      taskDescription({ ...base, priority: 'critical', type: 'bug', assignee: 'coder', labels: ['auth', 'ui'] }),
      'open · task-9 · critical · bug · @coder · auth, ui',
    );
  });

  it('colours a task not started yet by a high or critical priority', () => {
    assert.equal(
      (taskIcon({ status: 'open', result: null, priority: 'critical' }).color as vscode.ThemeColor).id,
      'charts.red',
    );
    assert.equal(taskIcon({ status: 'open', result: null, priority: 'low' }).color, undefined);
  });

  it('counts in words that agree with the number (one task, not 1 tasks)', () => {
    const workflow = {
      id: 3,
      name: 'Login',
      description: null,
      plan: [],
      taskCount: 1,
      running: 0,
      done: 1,
      failed: 0,
      kind: 'workflow',
      createdAt: '2026-03-01T10:00:00Z',
      updatedAt: '2026-03-01T10:00:00Z',
    } as unknown as WorkflowSummary;
    const tooltip = (workflowItem({ kind: 'workflow', ledger, workflow }).tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /1 task · 0 running/);
    assert.doesNotMatch(tooltip, /1 tasks/);
  });
});
