import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';
import { loadCatalog } from '../../src/mcp/catalog';
import type { Catalog } from '../../src/mcp/catalog';
import type { CatalogTool } from '../../src/mcp/toolDefinition';
import { families } from '../../src/mcp/families';
import { parseInput } from '../../src/core/contracts/inputValidation';

let catalog: Catalog;
before(async () => {
  catalog = await loadCatalog();
});
const allTools = (): readonly CatalogTool[] => catalog.tools;

// Issue 9, step 1: "the CLI and the MCP server refuse the same input with the same message for
// every family (a test walks every tool and proves it)". Every tool in the catalog is in exactly
// one of the lists below, so a new tool without a CLI command fails the first test until it is placed, with its reason.

/** Tools whose CLI command runs the tool through invokeTool: one bad input each, as argv and as the MCP arguments it becomes. */
const sameContract: Record<string, { argv: string[]; args: Record<string, unknown> }> = {
  task_list: { argv: ['task', 'list', '--status', 'bogus'], args: { status: 'bogus' } },
  task_get: { argv: ['task', 'get', ''], args: { id: '' } },
  task_create: { argv: ['task', 'create', 'T', '--priority', 'urgent'], args: { title: 'T', priority: 'urgent' } },
  task_update: { argv: ['task', 'update', '1', '--status', 'done'], args: { id: 1, status: 'done' } },
  worker_command: { argv: ['worker', 'command', '1', '--client', 'nope'], args: { taskId: 1, client: 'nope' } },
  worktree_cleanup: { argv: ['worker', 'cleanup', '--older-than-days', 'abc'], args: { olderThanDays: 'abc' } },
  session_start: { argv: ['session', 'start', '1', '--agent', ''], args: { taskId: 1, agent: '' } },
  session_end: { argv: ['session', 'end', '1', '--exit-code', 'abc'], args: { sessionId: 1, exitCode: 'abc' } },
  session_list: { argv: ['session', 'list', '--status', 'bogus'], args: { status: 'bogus' } },
  agent_get: { argv: ['agent', 'get', ''], args: { name: '' } },
  memory_list: { argv: ['memory', 'list', '--status', 'bogus'], args: { status: 'bogus' } },
  memory_add: {
    argv: ['memory', 'add', 'x', '--category', 'c', '--title', 't', '--status', 'bogus'],
    args: { id: 'x', category: 'c', title: 't', status: 'bogus' },
  },
  memory_preview: { argv: ['memory', 'preview', '--max-chars', 'abc'], args: { maxChars: 'abc' } },
  pipeline_next_action: {
    argv: ['pipeline', 'next', 'w', '--tokens', '-5'],
    args: { workspace: 'w', previous_action_complete: false, previous_tokens: -5 },
  },
  pipeline_report_result: { argv: ['pipeline', 'report', 'w', '--phase', ''], args: { workspace: 'w', phase: '' } },
  get_project: { argv: ['project', 'show', ''], args: { project_id: '' } },
  list_execution_logs: { argv: ['run', 'list', '--limit', '0'], args: { limit: 0 } },
  get_execution_log: { argv: ['run', 'show', ''], args: { execution_id: '' } },
  // The orchestrator family (src/cli/commands/coordinationCommands.ts, schedulingCommands.ts, childCommands.ts).
  bb_set: { argv: ['bb', 'set', 'k', '1', '--ttl-ms', '0'], args: { key: 'k', value: 1, ttl_ms: 0 } },
  bb_batch_set: { argv: ['bb', 'batch-set', '[]'], args: { entries: [] } },
  bb_get: { argv: ['bb', 'get', ''], args: { key: '' } },
  bb_query: { argv: ['bb', 'query', '--limit', '0'], args: { limit: 0 } },
  bb_delete: { argv: ['bb', 'delete', ''], args: { key: '' } },
  bb_watch: { argv: ['bb', 'watch', '--wait-ms', '60000'], args: { wait_ms: 60000 } },
  graph_mutate: { argv: ['graph', 'mutate', '{}', '[]'], args: { graph: {}, operations: [] } },
  graph_batch_mutate: {
    argv: ['graph', 'batch-mutate', 'wf-1', 'not json'],
    args: { graph_id: 'wf-1', operations: 'not json' },
  },
  graph_diff: {
    argv: ['graph', 'diff', 'wf-1', 'latest', 'v-1'],
    args: { graph_id: 'wf-1', from: { latest: true }, to: 'v-1' },
  },
  graph_patch: {
    argv: ['graph', 'patch', 'wf-1', '[{"op":"bogus","path":"/x"}]'],
    args: { graph_id: 'wf-1', patch: [{ op: 'bogus', path: '/x' }] },
  },
  graph_lock: { argv: ['graph', 'lock', 'wf-1'], args: { graph_id: 'wf-1' } },
  graph_unlock: { argv: ['graph', 'unlock', ''], args: { lock_id: '' } },
  values_explain: { argv: ['graph', 'explain', ''], args: { graph_id: '' } },
  tx_begin: { argv: ['graph', 'tx-begin', ''], args: { graph_id: '' } },
  tx_apply: { argv: ['graph', 'tx-apply', 'not-a-uuid', '[]'], args: { tx_id: 'not-a-uuid', operations: [] } },
  tx_commit: { argv: ['graph', 'tx-commit', 'not-a-uuid'], args: { tx_id: 'not-a-uuid' } },
  tx_rollback: { argv: ['graph', 'tx-rollback', ''], args: { tx_id: '' } },
  resources_list: { argv: ['resources', 'list', '--limit', 'abc'], args: { limit: 'abc' } },
  resources_read: { argv: ['resources', 'read', ''], args: { uri: '' } },
  resources_watch: {
    argv: ['resources', 'watch', 'sc://runs/wf-1/events', '--format', 'xml'],
    args: { uri: 'sc://runs/wf-1/events', format: 'xml' },
  },
  events_subscribe: { argv: ['events', 'subscribe', '--levels', 'loud'], args: { levels: ['loud'] } },
  child_create: { argv: ['child', 'create', 'ls -la'], args: { command: 'ls -la', args: [] } },
  child_spawn_codex: { argv: ['child', 'spawn-codex', 'bad id!', 'hi'], args: { child_id: 'bad id!', prompt: 'hi' } },
  child_batch_create: { argv: ['child', 'batch-create', '[]'], args: { entries: [] } },
  child_attach: { argv: ['child', 'attach', 'bad id!'], args: { child_id: 'bad id!' } },
  child_set_role: { argv: ['child', 'set-role', 'c1', ''], args: { child_id: 'c1', role: '' } },
  child_set_limits: {
    argv: ['child', 'set-limits', 'c1', '{"wallclock_ms":5}'],
    args: { child_id: 'c1', limits: { wallclock_ms: 5 } },
  },
  child_status: { argv: ['child', 'status', 'bad id!'], args: { child_id: 'bad id!' } },
  child_list: { argv: ['child', 'list', '--state', 'sleeping'], args: { state: 'sleeping' } },
  child_send: { argv: ['child', 'send', 'bad id!', 'x'], args: { child_id: 'bad id!', payload: 'x' } },
  child_kill: { argv: ['child', 'kill', 'c1', '--grace-ms', '-1'], args: { child_id: 'c1', grace_ms: -1 } },
  child_logs: { argv: ['child', 'logs', 'c1', '--limit', '0'], args: { child_id: 'c1', limit: 0 } },
  stig_mark: {
    argv: ['stig', 'mark', 'src/a.ts', 'write', 'abc'],
    args: { node_id: 'src/a.ts', type: 'write', intensity: 'abc' },
  },
  stig_batch: { argv: ['stig', 'batch', '{}'], args: { entries: {} } },
  stig_decay: { argv: ['stig', 'decay', '0'], args: { half_life_ms: 0 } },
  stig_snapshot: { argv: ['stig', 'snapshot', '--limit', '0'], args: { limit: 0 } },
  cnp_announce: { argv: ['cnp', 'announce', ''], args: { task_id: '' } },
  cnp_bid: {
    argv: ['cnp', 'bid', 'call-1', 'coder', 'abc'],
    args: { call_id: 'call-1', agent_id: 'coder', cost: 'abc' },
  },
  cnp_award: { argv: ['cnp', 'award', ''], args: { call_id: '' } },
  cnp_refresh_bounds: { argv: ['cnp', 'refresh-bounds', ''], args: { call_id: '' } },
  kg_insert: { argv: ['kg', 'insert', '[]'], args: { triples: [] } },
  kg_query: { argv: ['kg', 'query', '--order', 'sideways'], args: { order: 'sideways' } },
  kg_export: { argv: ['kg', 'export', '--format', 'csv'], args: { format: 'csv' } },
  kg_suggest_plan: { argv: ['kg', 'suggest-plan', ''], args: { goal: '' } },
  // Plan runs (src/cli/commands/planCommands.ts).
  plan_compile_bt: { argv: ['plan', 'compile', ''], args: { graph_id: '' } },
  plan_run_bt: { argv: ['plan', 'run', 'wf-1', '--timeout-ms', '0'], args: { graph_id: 'wf-1', timeout_ms: 0 } },
  plan_run_reactive: {
    argv: ['plan', 'run', 'wf-1', '--reactive', '--tick-ms', '5'],
    args: { graph_id: 'wf-1', tick_ms: 5 },
  },
  plan_status: { argv: ['plan', 'status', '--wait-ms', '60000'], args: { wait_ms: 60000 } },
  plan_pause: { argv: ['plan', 'pause', ''], args: { run_id: '' } },
  plan_resume: { argv: ['plan', 'resume', ''], args: { run_id: '' } },
  plan_cancel: { argv: ['plan', 'cancel', 'plan-1', '--reason', ''], args: { run_id: 'plan-1', reason: '' } },
  op_cancel: { argv: ['plan', 'op-cancel', ''], args: { op_id: '' } },
  plan_dry_run: { argv: ['plan', 'dry-run', ''], args: { graph_id: '' } },
};

/** Tools with no CLI command, and why. */
const noCliCommand: Record<string, string> = {
  mcp_info: 'describes the running MCP server itself; `agent-ledger --version` is the CLI’s',
  mcp_capabilities: 'lists what the running MCP server exposes; the CLI exposes every family',
  start_workflow: 'an agent’s record of its own work; the CLI only reads workflows (workflow list/show)',
  start_task:
    'an agent’s record of its own work; the CLI reads tasks (task get) and creates backlog tasks (task create)',
  log_decision: 'an agent’s record of its own work; the CLI shows it in task get’s timeline',
  log_issue: 'an agent’s record of its own work; the CLI shows it in task get’s timeline',
  log_milestone: 'an agent’s record of its own work; the CLI shows it in task get’s timeline',
  complete_task: 'an agent’s record of its own work; the CLI shows the outcome in task get',
  health_check: '`agent-ledger --version` and `db check` answer a person; this answers the runner’s poll',
  list_active_projects_with_agents:
    'the runner’s poll, answered for a program; the runner calls it in-process; a person reads `project list`',
  should_start: 'the runner’s poll, answered for a program; the runner calls it in-process',
  authenticate: 'an agent instance’s login; a person sets the passkey with `agent passkey`',
  logout: 'an agent instance’s call with its session token; a person has no session',
  get_my_task: 'an agent instance’s call with its session token; a person has no session',
  report_completed: 'an agent instance’s call with its session token; a person has no session',
  get_pending_tasks: 'deprecated, an agent instance’s call with its session token; a person has no session',
  report_execution_start: 'deprecated, an agent instance’s call with its session token; a person has no session',
  report_execution_complete: 'deprecated, an agent instance’s call with its session token; a person has no session',
  get_agent_profile: '`agent get` shows the definition a person edits',
  list_agents: '`agent list` lists the definitions a person edits',
  list_tasks: '`task list` lists the same tasks for a person',
  get_task: '`task get` shows the same task for a person',
  update_task_status: '`task update` changes the same task for a person',
  assign_task: '`task update --assignee` assigns the same task for a person',
  save_context: 'an agent’s note for the next agent; shown by get_task_context',
  get_task_context: 'what agents left for each other; no CLI view yet',
  create_handoff: 'an agent hands work to another agent',
  accept_handoff: 'an agent accepts work handed to it',
  get_pending_handoffs: 'a bounded wait for an agent; no CLI command yet',
  pipeline_init_with_context:
    '`pipeline init` runs pipeline_init and pipeline_init_with_context in one go (--effort, --title, --body, …)',
};

/** A command that takes no arguments: there is no bad input the CLI can send. */
const noArgumentsToRefuse: Record<string, string> = {
  agent_list: '`agent list` takes no arguments',
  list_projects: '`project list` takes no arguments',
  cnp_watcher_telemetry: '`cnp telemetry` takes no arguments',
};

/** `pipeline init` validates the request text itself (its schema, arguments: string, has no bad input the command line can spell). */
const noBadInputFromCli: Record<string, string> = {
  pipeline_init:
    '`pipeline init <request...>`: any text is a string; the engine judges the request (too short, unknown flag) the same way for both faces',
};

const contractMessage = (name: string, args: Record<string, unknown>): string => {
  const tool = allTools().find((t) => t.name === name);
  assert.ok(tool, name);
  try {
    parseInput(tool.name, tool.input, args);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`${name} accepts ${JSON.stringify(args)}: not a bad input`);
};

describe('the CLI and the MCP server refuse the same bad input with the same message, for every tool', () => {
  let repo: string;
  let server: LedgerClient;
  let before0: ReturnType<typeof counts>;

  const counts = () => ({
    tasks: cliJson<{ total: number }>(['task', 'list', '--workspace', repo]).total,
    workflows: cliJson<{ total: number }>(['workflow', 'list', '--workspace', repo]).total,
    // The last event of the log: any write (a blackboard entry, a graph version, a child, a mark) appends one.
    lastEvent: cliJson<{ next_seq: number }>([
      'events',
      'subscribe',
      '--wait-ms',
      '0',
      '--limit',
      '500',
      '--workspace',
      repo,
    ]).next_seq,
    children: cliJson<{ children: unknown[] }>(['child', 'list', '--workspace', repo]).children.length,
  });

  before(async () => {
    repo = tempRepo();
    server = await connect(
      repo,
      families.map((f) => `--enable-${f}`),
    );
    // Task 1 exists, so the refusals below are about the input, not a missing id.
    const task = await server.call<{ id: number }>('task_create', { title: 'Seed' });
    assert.equal(task.id, 1);
    before0 = counts();
  });
  after(() => server.close());

  test('every tool in the catalog is placed in exactly one list, with its reason', () => {
    const lists = [
      Object.keys(sameContract),
      Object.keys(noCliCommand),
      Object.keys(noArgumentsToRefuse),
      Object.keys(noBadInputFromCli),
    ];
    const placed = lists.flat();
    assert.equal(new Set(placed).size, placed.length, 'a tool is in two lists');
    assert.deepEqual(
      [...placed].sort(),
      allTools()
        .map((t) => t.name)
        .sort(),
    );
  });

  test('the MCP server serves every tool (all families enabled)', async () => {
    const { tools } = await server.client.listTools();
    // Listed one tool per action: deprecated tools, the runner's and the twins of listed tools are answered, not listed.
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      allTools()
        .filter((t) => t.deprecated === undefined && t.audience !== 'runner' && t.aliasOf === undefined)
        .map((t) => t.name)
        .sort(),
    );
  });

  for (const [name, c] of Object.entries(sameContract)) {
    test(`${name}: \`agent-ledger ${c.argv.join(' ')}\` and the MCP call refuse alike`, async () => {
      const expected = contractMessage(name, c.args);
      assert.match(expected, new RegExp(`^invalid arguments for ${name}: `));
      const viaMcp = await server.fail(name, c.args);
      const r = cli([...c.argv, '--workspace', repo, '--json']);
      assert.equal(r.code, 2, `${name}: exit code 2 (usage) for a refused input; stderr: ${r.stderr}`);
      const viaCli = cliError(r);
      assert.deepEqual(
        { code: viaCli.code, reason: viaCli.reason, message: viaCli.message },
        { code: viaMcp.code, reason: viaMcp.reason, message: viaMcp.message },
      );
      assert.equal(viaMcp.reason, 'ValidationError');
      assert.equal(viaMcp.message, expected, 'the message is the contract’s (inputValidation via invokeTool)');
    });
  }

  for (const name of Object.keys(noCliCommand)) {
    test(`${name} (no CLI command): the MCP server still refuses with the contract’s message`, async () => {
      const tool = allTools().find((t) => t.name === name);
      assert.ok(tool);
      const args = { not_a_field: true };
      let expected: string | undefined;
      try {
        parseInput(tool.name, tool.input, args);
      } catch (e) {
        expected = (e as Error).message;
      }
      if (expected === undefined) {
        await server.call(name, args); // the schema lets unknown fields through: nothing to refuse
        return;
      }
      const viaMcp = await server.fail(name, args);
      assert.equal(viaMcp.message, expected);
    });
  }

  test('nothing was written by any refusal: tasks, workflows, children and the events log unchanged', () => {
    assert.deepEqual(counts(), before0);
  });
});
