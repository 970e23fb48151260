import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { git, tempRepo, writeFiles } from '../helpers/tmp';

/** The repository state a user cares about; snapshots must leave all of it untouched. */
function repoState(repo: string) {
  const stat = (f: string) => fs.statSync(path.join(repo, f)).mtimeMs;
  return {
    head: git(repo, 'rev-parse', 'HEAD'),
    symbolicHead: git(repo, 'symbolic-ref', 'HEAD'),
    index: fs.readFileSync(path.join(repo, '.git', 'index')).toString('base64'),
    staged: git(repo, 'diff', '--cached', '--name-status'),
    branches: git(repo, 'for-each-ref', 'refs/heads', 'refs/tags'),
    stash: git(repo, 'stash', 'list'),
    status: git(repo, 'status', '--porcelain', '--untracked-files=all'),
    mtimes: ['src/a.ts', 'staged.ts', 'untracked.txt'].map(stat),
  };
}

describe('tracking lifecycle', () => {
  test('the full seed 000 flow with decisions, issues and milestones, persisted across a server restart', async () => {
    const repo = tempRepo({ 'src/auth/jwt.ts': 'v1\n' });
    let c = await connect(repo);
    const wf = await c.call<{ workflow_id: string; created_at: string }>('start_workflow', {
      name: 'Add authentication',
      description: 'Implement JWT-based authentication',
      plan: [
        { step: '1', goal: 'Install library' },
        { step: '2', goal: 'Middleware' },
      ],
    });
    assert.match(wf.workflow_id, /^wf-\d+$/);
    assert.ok(!Number.isNaN(Date.parse(wf.created_at)));
    const t = await c.call<{ task_id: string; snapshot_id: string; snapshot_type: string; started_at: string }>(
      'start_task',
      {
        workflow_id: wf.workflow_id,
        name: 'Setup JWT middleware',
        goal: 'Create middleware to verify JWT tokens',
        areas: ['auth', 'middleware'],
      },
    );
    assert.equal(t.snapshot_type, 'git');
    assert.match(t.snapshot_id, /^[0-9a-f]{40}$/);
    assert.equal(
      git(repo, 'rev-parse', `refs/agent-ledger/snapshots/${t.task_id}`).trim(),
      t.snapshot_id,
      'the snapshot is pinned against gc',
    );
    await c.call('log_decision', {
      task_id: t.task_id,
      category: 'library_choice',
      question: 'Which JWT library?',
      options_considered: ['jsonwebtoken', 'jose'],
      chosen: 'jsonwebtoken',
      reasoning: 'More mature',
      trade_offs: 'CommonJS only',
    });
    await c.call('log_issue', {
      task_id: t.task_id,
      type: 'documentation_gap',
      description: 'Docs outdated',
      resolution: 'Used examples',
      requires_human_review: true,
    });
    await c.call('log_milestone', { task_id: t.task_id, message: 'Installing…', progress: 50, metadata: { step: 1 } });
    await c.close();

    c = await connect(repo); // a new process: everything must come from the store
    writeFiles(repo, { 'src/middleware/auth.ts': 'mw\n', 'src/auth/jwt.ts': 'v2\n' });
    const done = await c.call<{
      duration_seconds: number;
      counts: Record<string, number>;
      files_changed: { added: string[]; modified: string[] };
    }>('complete_task', {
      task_id: t.task_id,
      status: 'success',
      outcome: {
        summary: 'JWT middleware created',
        achievements: ['verifies signatures'],
        limitations: [],
        manual_review_needed: true,
        manual_review_reason: 'security',
      },
      metadata: {
        packages_added: ['jsonwebtoken'],
        commands_executed: ['npm test'],
        tests_status: 'passed',
        extra: 'kept',
      },
    });
    assert.deepEqual(done.counts, { decisions: 1, issues: 1, milestones: 1 });
    assert.deepEqual(done.files_changed.added, ['src/middleware/auth.ts']);
    assert.deepEqual(done.files_changed.modified, ['src/auth/jwt.ts']);
    assert.ok(done.duration_seconds >= 0);
    await c.close();

    c = await connect(repo);
    const resource = JSON.parse(
      ((await c.client.readResource({ uri: `task://${t.task_id}` })).contents[0] as { text: string }).text,
    );
    assert.equal(resource.status, 'done');
    assert.equal(resource.result, 'success');
    assert.equal(resource.progress, 100);
    assert.equal(resource.outcome.manual_review_reason, 'security');
    assert.equal(resource.metadata.extra, 'kept', 'unknown metadata fields are kept, not dropped');
    assert.deepEqual(resource.areas, ['auth', 'middleware']);
    assert.deepEqual(
      resource.timeline.map((e: { kind: string }) => e.kind),
      ['decision', 'issue', 'milestone'],
    );
    assert.deepEqual(resource.timeline[0].options, ['jsonwebtoken', 'jose']);
    const workflow = JSON.parse(
      ((await c.client.readResource({ uri: `workflow://${wf.workflow_id}` })).contents[0] as { text: string }).text,
    );
    assert.equal(workflow.status, 'done');
    assert.deepEqual(workflow.plan, [
      { step: '1', goal: 'Install library' },
      { step: '2', goal: 'Middleware' },
    ]);
    assert.equal(workflow.tasks.length, 1);
    await c.close();
  });

  test('snapshots never touch HEAD, the index, branches, the stash, git status or file times', async () => {
    const repo = tempRepo({ 'src/a.ts': 'a\n', 'staged.ts': 'v1\n' });
    git(repo, 'branch', 'feature');
    writeFiles(repo, { 'stashed.txt': 'x\n' });
    git(repo, 'add', 'stashed.txt');
    git(repo, 'stash');
    writeFiles(repo, { 'staged.ts': 'v2 staged\n' });
    git(repo, 'add', 'staged.ts');
    writeFiles(repo, { 'staged.ts': 'v3 unstaged on top\n', 'src/a.ts': 'modified\n', 'untracked.txt': 'u\n' });
    const before = repoState(repo);
    const c = await connect(repo);
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'w' });
    const { task_id } = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 't', goal: 'g' });
    assert.deepEqual(repoState(repo), before, 'start_task changed the repository');
    const done = await c.call<{ files_changed: Record<string, string[]> }>('complete_task', {
      task_id,
      status: 'success',
      outcome: { summary: 's' },
    });
    assert.deepEqual(repoState(repo), before, 'complete_task changed the repository');
    assert.deepEqual(done.files_changed, { added: [], modified: [], deleted: [], renamed: [] });
    const exclude = fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8');
    assert.match(exclude, /^\.agent-ledger\/ledger\.\*$/m);
    assert.match(exclude, /^\.agent-ledger\/worktrees\/$/m);
    await c.close();
  });

  test('an empty repository (unborn HEAD) can be tracked', async () => {
    const repo = tempRepo();
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    git(repo, 'init', '-q');
    const c = await connect(repo);
    const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: 'w' });
    const { task_id } = await c.call<{ task_id: string }>('start_task', { workflow_id, name: 't', goal: 'g' });
    writeFiles(repo, { 'first.txt': '1\n' });
    git(repo, 'add', 'first.txt');
    git(repo, 'commit', '-qm', 'first commit');
    const done = await c.call<{ files_changed: { added: string[] }; commits: { subject: string }[] }>('complete_task', {
      task_id,
      status: 'success',
      outcome: { summary: 's' },
    });
    assert.deepEqual(
      done.files_changed.added,
      ['first.txt'],
      'README.md was already there (untracked) before the task',
    );
    assert.deepEqual(
      done.commits.map((x) => x.subject),
      ['first commit'],
    );
    await c.close();
  });
});

describe('introspection, families and resources', () => {
  test('mcp_info and mcp_capabilities have seed 001’s shapes and follow the family switches', async () => {
    const repo = tempRepo();
    const c = await connect(repo, ['--disable-pipeline', '--enable-pm']);
    const info = await c.call<Record<string, any>>('mcp_info');
    assert.equal(info.server.name, 'agent-ledger');
    assert.match(info.server.version, /^\d+\.\d+\.\d+/);
    assert.equal(typeof info.server.mcpVersion, 'string');
    assert.deepEqual(info.transports.stdio, { enabled: true });
    assert.equal(info.transports.http.enabled, false);
    assert.equal(info.features.enableTracking, true);
    assert.equal(info.features.enablePipeline, false);
    assert.equal(info.features.enablePm, true);
    assert.equal(info.features.enableOrchestrator, false);
    assert.deepEqual(Object.keys(info.limits).sort(), [
      'defaultTimeoutMs',
      'ledger',
      'maxEventAgeMs',
      'maxEventBytes',
      'maxEventHistory',
      'maxInputBytes',
      'maxJsonDepth',
      'maxMessageBytes',
    ]);
    assert.equal(info.limits.maxEventAgeMs, 7 * 24 * 3_600_000, 'retention by age: 7 days');
    const caps = await c.call<Record<string, any>>('mcp_capabilities');
    const namespaces = caps.namespaces.map((n: { name: string }) => n.name);
    assert.ok(
      namespaces.includes('tracking') && namespaces.includes('pm') && !namespaces.includes('pipeline'),
      namespaces.join(),
    );
    assert.equal(caps.schemas.start_task.namespace, 'tracking');
    assert.equal(typeof caps.limits.maxEventHistory, 'number');
    await c.close();

    const lean = await connect(repo, ['--disable-tracking']);
    const names = (await lean.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('mcp_info') && names.includes('mcp_capabilities'));
    assert.ok(!names.includes('start_task'), 'disabled family hidden');
    await assert.rejects(
      lean.client.callTool({ name: 'start_task', arguments: { workflow_id: 'wf-1', name: 'n', goal: 'g' } }),
      /MCP error -32602: unknown tool "start_task"/,
    );
    await lean.close();
  });

  test('tools declare annotations, described input schemas with the seed’s enums and bounds, and output schemas', async () => {
    const c = await connect(tempRepo());
    const tools = Object.fromEntries((await c.client.listTools()).tools.map((t) => [t.name, t]));
    const complete = tools.complete_task.inputSchema as any;
    assert.deepEqual(complete.required.sort(), ['outcome', 'status', 'task_id']);
    assert.deepEqual(complete.properties.status.enum, ['success', 'partial_success', 'failed']);
    assert.deepEqual(complete.properties.outcome.required, ['summary']);
    const milestone = tools.log_milestone.inputSchema as any;
    assert.equal(milestone.properties.progress.minimum, 0);
    assert.equal(milestone.properties.progress.maximum, 100);
    assert.deepEqual((tools.log_issue.inputSchema as any).properties.type.enum, [
      'documentation_gap',
      'bug_encountered',
      'dependency_conflict',
      'unclear_requirement',
      'other',
    ]);
    for (const t of Object.values(tools)) {
      assert.ok(t.annotations, `${t.name} has annotations`);
      assert.ok(t.outputSchema, `${t.name} has an output schema`);
      for (const [field, schema] of Object.entries((t.inputSchema as any).properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${t.name}.${field} is described`);
      }
    }
    assert.equal(tools.mcp_info.annotations?.readOnlyHint, true);
    await c.close();
  });

  test('resources: templates, list, read, and updates pushed to subscribers when another process writes', async () => {
    const repo = tempRepo();
    const watcher = await connect(repo);
    const writer = await connect(repo);
    const templates = (await watcher.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes('task://{id}') && templates.includes('workflow://{id}'), templates.join());
    const { workflow_id } = await writer.call<{ workflow_id: string }>('start_workflow', { name: 'live' });
    const { task_id } = await writer.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: 'watched',
      goal: 'g',
    });
    const id = task_id.replace('task-', '');
    const listed = (await watcher.client.listResources()).resources.map((r) => r.uri);
    assert.ok(
      listed.includes(`task://${id}`) && listed.includes(`workflow://${workflow_id.replace('wf-', '')}`),
      listed.join(),
    );

    const updates: string[] = [];
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    watcher.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await watcher.client.subscribeResource({ uri: `task://${id}` });
    await writer.call('log_milestone', { task_id, message: 'from another process', progress: 40 });
    const deadline = Date.now() + 3000;
    while (!updates.includes(`task://${id}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.ok(updates.includes(`task://${id}`), 'subscriber notified within 3 s');
    const read = JSON.parse(
      ((await watcher.client.readResource({ uri: `task://${id}` })).contents[0] as { text: string }).text,
    );
    assert.equal(read.lastMilestone, 'from another process');
    await assert.rejects(watcher.client.readResource({ uri: 'task://999' }), /not found/i);
    await watcher.close();
    await writer.close();
  });
});
