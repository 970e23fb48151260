import type { ChildLogsOutput } from '../../core/runtime/children/childContracts';
import { childIsLive } from '../../core/runtime/children/childStates';
import type { Services } from '../../app/services';
import { printLines, style } from '../output';
import { visible } from '../terminalText';
import { callTool } from '../toolCommand';
import type { ToolGroup } from '../toolGroups';
import { headedTable, nextLine } from '../resultText';

type ChildView = {
  child_id: string;
  runtime_status: {
    state: string;
    pid: number | null;
    exit_code: number | null;
    signal: string | null;
    limit: string | null;
  };
  manifest: { command: string; args: string[]; role: string | null };
};

/** How often the foreground loop looks at a child that prints nothing (each look is a bounded child_logs wait). */
const followWaitMs = 500;

/**
 * A child belongs to the process that starts it (its input pipe, its live limits), and a
 * process stops its children when it ends. So a child started from the command line runs in
 * the foreground: the command prints the tool's result, then stays until every child it started
 * has ended (its wall-clock limit bounds that), printing their output as it comes unless
 * `--json` was asked for (stdout then holds the result alone). Ctrl-C or SIGTERM stops them
 * through child_kill, so their end is recorded.
 */
async function followChildren(ids: string[], services: Services, json: boolean): Promise<void> {
  let interrupted = false;
  const stop = (): void => void (interrupted = true);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const from = new Map(ids.map((id) => [id, 0]));
    while (from.size > 0 && !interrupted) {
      for (const [id, seq] of [...from]) {
        const r = (await callTool(services, 'child_logs', {
          child_id: id,
          from_seq: seq,
          wait_ms: from.size === 1 ? followWaitMs : 0,
        })) as ChildLogsOutput;
        if (!json)
          printLines(
            r.logs.map(
              (l) =>
                `${ids.length > 1 ? style.dim(`${visible(id)} `) : ''}${l.stream === 'stderr' ? style.yellow(visible(l.message)) : l.stream === 'meta' ? style.dim(visible(l.message)) : visible(l.message)}`,
            ),
          );
        if (childIsLive(r.state)) from.set(id, r.next_seq);
        else from.delete(id);
      }
      if (from.size > 1) await new Promise((resolve) => setTimeout(resolve, followWaitMs));
    }
    for (const id of interrupted ? ids : []) await callTool(services, 'child_kill', { child_id: id });
    if (!json) {
      for (const id of ids)
        printLines([endLine((await callTool(services, 'child_status', { child_id: id })) as ChildView)]);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function endLine(c: ChildView): string {
  const s = c.runtime_status;
  const how = s.limit
    ? `stopped by its ${s.limit} limit`
    : s.signal
      ? `ended by ${s.signal}`
      : s.exit_code !== null
        ? `exit code ${s.exit_code}`
        : s.state;
  return style.dim(`child ${visible(c.child_id)} ${s.state}: ${how}`);
}

const childLine = (c: ChildView): string =>
  `${style.bold(visible(c.child_id))} ${c.runtime_status.state}${c.runtime_status.pid ? ` pid ${c.runtime_status.pid}` : ''}: ${visible([c.manifest.command, ...c.manifest.args].join(' '))}`;

const foreground =
  'The child runs in the foreground: this command returns when it ends (Ctrl-C stops it). Put the program after --, e.g. agent-ledger child create -- node -e "console.log(1)"';

/** Child runtimes: programs the ledger starts, limits, logs and stops. */
export const childGroup: ToolGroup = {
  name: 'child',
  commands: [
    {
      name: 'create',
      tool: 'child_create',
      args: ['command', 'args'],
      summary: 'Start a program (never through a shell) and follow its output',
      format: (r: ChildView) => [childLine(r)],
      then: (r: ChildView, s, json) => followChildren([r.child_id], s, json),
      help: foreground,
    },
    {
      name: 'spawn-codex',
      tool: 'child_spawn_codex',
      args: ['child_id', 'prompt'],
      summary: 'Start Codex on a prompt and follow its output',
      format: (r: ChildView) => [childLine(r)],
      then: (r: ChildView, s, json) => followChildren([r.child_id], s, json),
      help: foreground,
    },
    {
      name: 'batch-create',
      tool: 'child_batch_create',
      args: ['entries'],
      summary: 'Start up to 16 Codex children at once (all or none) and follow them',
      format: (r: { children: ChildView[] }) => r.children.map(childLine),
      then: (r: { children: ChildView[] }, s, json) =>
        followChildren(
          r.children.map((c) => c.child_id),
          s,
          json,
        ),
      help: foreground,
    },
    {
      name: 'attach',
      tool: 'child_attach',
      args: ['child_id'],
      summary: 'Record that you follow a child (refreshes its manifest)',
      format: (r: ChildView) => [childLine(r)],
    },
    {
      name: 'set-role',
      tool: 'child_set_role',
      args: ['child_id', 'role'],
      summary: "Change a child's role",
      format: (r: ChildView) => [childLine(r)],
    },
    {
      name: 'set-limits',
      tool: 'child_set_limits',
      args: ['child_id', 'limits'],
      summary: "Change a child's limits (wall clock, output and silence only from the process that started it)",
    },
    {
      name: 'status',
      tool: 'child_status',
      args: ['child_id'],
      summary: 'State, limits and manifest of a child',
      writes: true,
    },
    {
      name: 'list',
      tool: 'child_list',
      summary: 'Children of the workspace, newest first',
      writes: true,
      format: (r: { children: ChildView[] }) =>
        headedTable(
          ['CHILD', 'STATE', 'PID', 'COMMAND'],
          r.children.map((c) => [
            style.bold(visible(c.child_id)),
            c.runtime_status.state,
            String(c.runtime_status.pid ?? '-'),
            visible([c.manifest.command, ...c.manifest.args].join(' ')),
          ]),
          'No children.',
        ),
    },
    {
      name: 'send',
      tool: 'child_send',
      args: ['child_id', 'payload'],
      summary: "Write to a child's input (only the process that started it holds that input)",
    },
    {
      name: 'kill',
      tool: 'child_kill',
      args: ['child_id'],
      summary: 'Stop a child (SIGTERM, then SIGKILL after --grace-ms)',
      format: (r: ChildView) => [endLine(r)],
    },
    {
      name: 'logs',
      tool: 'child_logs',
      args: ['child_id'],
      summary: "A child's output after a seq; waits up to --wait-ms (≤ 50 s) for a line while it runs",
      writes: true,
      format: (r: ChildLogsOutput) => [
        ...r.logs.map((l) => `${style.dim(`${l.seq} ${l.stream}`)} ${visible(l.message)}`),
        style.dim(`state: ${r.state}`),
        nextLine('--from-seq', r.next_seq),
      ],
    },
  ],
};
