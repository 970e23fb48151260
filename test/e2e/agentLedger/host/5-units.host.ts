// Unit tests of the extension's pure parts, run inside the same extension host.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { familyFlags, selectedFamilies, serverArgs, shellLine } from '../../../../src/vscode/mcp/serverLaunch';
import { clientConfigPath, mergeServerEntry, serverName } from '../../../../src/vscode/mcp/clientConfigs';
import { taskDescription, statusText } from '../../../../src/views/taskText';
import { taskIcon } from '../../../../src/vscode/views/tasks/taskItems';
import { localTime } from '../../../../src/vscode/views/blackboard/blackboardItems';
import { formatAge, formatDuration, truncate } from '../../../../src/core/format';
import type { Task } from '../../../../src/core/tasks/taskModel';

const tmp = (): string => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'al-unit-')));

describe('server launch', () => {
  it('turns a family selection into switches relative to the defaults', () => {
    assert.deepEqual(familyFlags(['tracking', 'tasks', 'pipeline']), []);
    assert.deepEqual(familyFlags(['tracking', 'pm']), ['--disable-tasks', '--disable-pipeline', '--enable-pm']);
    assert.deepEqual(familyFlags([]), ['--disable-tracking', '--disable-tasks', '--disable-pipeline']);
    assert.deepEqual(familyFlags(['tracking', 'tasks', 'pipeline', 'bogus']), []);
  });

  it('reads the setting in canonical order, defaulting when it is not a list', () => {
    assert.deepEqual(selectedFamilies(['pm', 'tracking']), ['tracking', 'pm']);
    assert.deepEqual(selectedFamilies(undefined), ['tracking', 'tasks', 'pipeline']);
  });

  it('quotes a shell line', () => {
    const line = shellLine({
      command: '/opt/My Editor/code',
      args: serverArgs('/x/cli.js', "/ws/it's", ['tracking', 'tasks', 'pipeline', 'pm']),
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    assert.equal(
      line,
      `ELECTRON_RUN_AS_NODE=1 '/opt/My Editor/code' --max-semi-space-size=1 /x/cli.js mcp serve --workspace "/ws/it's" --enable-pm`,
    );
  });

  it('passes the user’s worktrees folder (agentLedger.worktreesDir) as --worktrees-dir', () => {
    assert.deepEqual(serverArgs('/x/cli.js', '/ws', ['tracking', 'tasks', 'pipeline'], '/disk/worktrees').slice(-2), [
      '--worktrees-dir',
      '/disk/worktrees',
    ]);
    assert.equal(serverArgs('/x/cli.js', '/ws', ['tracking', 'tasks', 'pipeline']).includes('--worktrees-dir'), false);
  });
});

describe('client config files', () => {
  it('knows where each client reads its servers', () => {
    assert.equal(clientConfigPath('claudeCode', '/ws'), path.join('/ws', '.mcp.json'));
    assert.equal(clientConfigPath('cursor', '/ws'), path.join('/ws', '.cursor', 'mcp.json'));
    assert.equal(clientConfigPath('claudeDesktop', '/ws', '/etc/claude.json'), '/etc/claude.json');
    assert.match(clientConfigPath('claudeDesktop', '/ws'), /Claude[\\/]claude_desktop_config\.json$/);
    assert.equal(serverName('claudeDesktop', '/home/me/My Shop!'), 'agent-ledger-My-Shop');
  });

  it('merges into an empty or missing file and reports unchanged entries', () => {
    const file = path.join(tmp(), 'sub', 'mcp.json');
    assert.equal(mergeServerEntry(file, 'agent-ledger', { command: 'node', args: ['a'] }).status, 'added');
    assert.equal(mergeServerEntry(file, 'agent-ledger', { command: 'node', args: ['a'] }).status, 'unchanged');
    assert.equal(mergeServerEntry(file, 'agent-ledger', { command: 'node', args: ['b'] }).status, 'updated');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      mcpServers: { 'agent-ledger': { command: 'node', args: ['b'] } },
    });
  });

  it('keeps keys of our own entry that a client added (e.g. Cursor’s disabled) and tab indentation', () => {
    const file = path.join(tmp(), 'mcp.json');
    writeFileSync(
      file,
      '{\n\t"mcpServers": {\n\t\t"agent-ledger": { "command": "old", "args": [], "disabled": false }\n\t}\n}\n',
    );
    mergeServerEntry(file, 'agent-ledger', { command: 'node', args: ['x'] });
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(JSON.parse(text).mcpServers['agent-ledger'], { command: 'node', args: ['x'], disabled: false });
    assert.match(text, /^\{\n\t"mcpServers"/);
  });

  it('refuses JSON that is not an object, or whose mcpServers is not one', () => {
    const file = path.join(tmp(), 'mcp.json');
    writeFileSync(file, '[]');
    assert.throws(() => mergeServerEntry(file, 'x', { command: 'n', args: [] }), /does not hold a JSON object/);
    writeFileSync(file, '{"mcpServers": 3}');
    assert.throws(() => mergeServerEntry(file, 'x', { command: 'n', args: [] }), /is not an object/);
  });
});

describe('tree and status text', () => {
  const base = {
    id: 7,
    status: 'in_progress',
    result: null,
    progress: 40,
    durationSeconds: null,
    startedAt: '2026-01-01T10:00:00.000Z',
    assignee: 'coder',
    outcome: null,
    verification: null,
  } as unknown as Task;

  it('describes a running task with its state and progress first, then key, elapsed time and assignee', () => {
    assert.equal(
      taskDescription(base, Date.parse('2026-01-01T10:02:05.000Z')),
      'in progress 40% · task-7 · 2m 05s · @coder',
    );
  });

  it('describes a finished one with its duration, review and scope flags', () => {
    const t = {
      ...base,
      status: 'done',
      result: 'partial_success',
      durationSeconds: 3700,
      outcome: { summary: 's', manual_review_needed: true },
      verification: { scope_match: false, unexpected_files: ['x'], warnings: [] },
    } as unknown as Task;
    assert.equal(taskDescription(t), 'needs review · ⚠ out of scope · partial success · task-7 · 1h 01m · @coder');
    assert.equal(
      taskDescription(t, Date.now(), { completionReviewed: true }),
      'reviewed · ⚠ out of scope · partial success · task-7 · 1h 01m · @coder',
      'a person answered the review',
    );
    assert.equal(statusText(t), 'partial success');
  });

  it('says first why a task does not move: held by a person, or the runner’s reason', () => {
    const at = Date.parse('2026-01-01T10:02:05.000Z');
    const held = { ...base, hold: { by: 'ada', at: '2026-01-01T10:01:00.000Z' } } as unknown as Task;
    assert.equal(taskDescription(held, at), 'held (stopped by ada) · in progress 40% · task-7 · 2m 05s · @coder');
    const waits = {
      ...base,
      waiting: { reason: 'dependencies', detail: 'task-7 waits for task-3', blockedBy: ['task-3'], since: 'x' },
    } as unknown as Task;
    assert.equal(
      taskDescription(waits, at),
      'waiting: dependencies not done · in progress 40% · task-7 · 2m 05s · @coder',
    );
  });

  it('gives a ledger state a static icon: no spinner without a process; a pause when held', () => {
    assert.equal(taskIcon(base).id, 'circle-filled');
    assert.equal(taskIcon({ ...base, hold: { by: 'ada', at: 'x' } } as unknown as Task).id, 'debug-pause');
  });

  it('shows Blackboard times in local time, not raw UTC', () => {
    const now = new Date(2026, 10, 28, 15, 0, 0).getTime();
    assert.equal(localTime(new Date(2026, 10, 28, 14, 5, 9).getTime(), now), '14:05:09');
    assert.equal(localTime(new Date(2026, 2, 1, 9, 0, 0).getTime(), now), '2026-03-01 09:00:00');
  });

  it('formats durations, ages and long text', () => {
    assert.equal(formatDuration(59), '59s');
    assert.equal(formatDuration(60 * 60 * 50), '2d 2h');
    assert.equal(formatAge(new Date(Date.now() - 10_000).toISOString()), 'just now');
    assert.equal(formatAge(new Date(Date.now() - 5 * 60_000).toISOString()), '5 min ago');
    assert.equal(truncate('one two three four five', 12), 'one two thr…');
    assert.equal(truncate('alpha beta gamma delta', 15), 'alpha beta…');
  });
});
