import { nodeTaskId } from '../../events/correlation';
import type { BtNode, NamedNode } from './behaviourTree';
import { childrenOf, isLeaf, walk } from './behaviourTree';

/**
 * One tick of a behaviour tree whose state is kept between ticks (in the ledger, not in memory):
 * what each node is doing, read and written as plain data, so any process can take the next tick.
 * A tick reads the world (the tasks' statuses, a run's variables, the time), moves the nodes, and
 * says what must happen: tasks to queue for their agents, tasks to hold back or stop, tools to
 * call. It never does any of it itself: the caller does, in the same write where it can.
 */

export type NodeStatus =
  /** Not started yet. */
  | 'idle'
  /** Waits for the nodes it is `after`, or for a person (a gate). */
  | 'waiting'
  /** May start but the run is paused (or its parallel stopped starting new work). */
  | 'ready'
  | 'running'
  | 'success'
  | 'failure'
  /** Never ran: a node it waited for failed, or its guard was false. */
  | 'skipped'
  /** Stopped: the run was cancelled, a timeout passed, or a sibling won a parallel `any`. */
  | 'cancelled';

export interface NodeState {
  status: NodeStatus;
  /** Retry: the attempt running now (1 = the first). Task leaf: launches this run made. */
  attempts?: number;
  /** Task leaf: the operation of its current launch (op_cancel takes it). */
  op_id?: string;
  /** Timeout: when the child fails if still running (epoch ms). */
  deadline?: number;
  /** Why it is in this state, in one line. */
  reason?: string;
  /** Gate: who approved or refused, and when. */
  decided_by?: string;
  decided_at?: string;
  /** Tool leaf: when this tick's process claimed the call (epoch ms), and its answer. */
  claimed_at?: number;
  result?: unknown;
  /** When it last changed (epoch ms). */
  changed_at?: number;
}

export type NodeStates = Record<string, NodeState>;

/** What the tick needs to know of a task. */
export interface TaskView {
  status: string;
  assignee: string | null;
  /** An open run (execution) of the task: an agent works on it now. */
  running: boolean;
  /** The assignee is an agent (not a person). */
  assigneeIsAgent?: boolean;
}

export interface World {
  now: number;
  tasks: ReadonlyMap<number, TaskView>;
  variables: Readonly<Record<string, unknown>>;
  /** Whether new work may start (false while the run is paused). */
  mayStart: boolean;
  /** Whether this process can call tools (an MCP server or the CLI can; the runner cannot). */
  canCallTools: boolean;
  /** An op id for a leaf's new launch. */
  opId(nodeId: string, attempt: number): string;
  /** The agent of a task leaf (its own, the run's map, the task's assignee, the run's default). */
  agentOf(leaf: Extract<BtNode, { type: 'task' }>): string | null;
}

export type TickAction =
  | { kind: 'queue'; nodeId: string; taskId: number; agent: string; opId: string }
  /** Stop a task's agent: the task is cancelled, its running agent stopped. */
  | { kind: 'stop'; nodeId: string; taskId: number; reason: string }
  /** Hold a queued task back (the run paused before an agent took it): back to open. */
  | { kind: 'unqueue'; nodeId: string; taskId: number }
  | { kind: 'callTool'; nodeId: string; tool: string; input: Record<string, unknown> };

export type TickResult = 'running' | 'success' | 'failure';

export interface TickOutcome {
  result: TickResult;
  actions: TickAction[];
  /** Nodes whose status changed, with the new status. */
  changed: Array<{ nodeId: string; status: NodeStatus; reason?: string }>;
}

/** A claimed tool call left unanswered this long (its process died) is claimed again. */
export const TOOL_CLAIM_MS = 120_000;

const terminal = new Set<NodeStatus>(['success', 'failure', 'skipped', 'cancelled']);

export function isSettled(status: NodeStatus | undefined): boolean {
  return status !== undefined && terminal.has(status);
}

/** Ticks the tree once, moving `states` in place. */
export function tick(root: NamedNode, states: NodeStates, world: World): TickOutcome {
  const t = new Ticker(states, world);
  const result = t.tick(root, world.mayStart);
  return { result, actions: t.actions, changed: t.changed };
}

/** Stops every node of the tree that has not ended (a cancel), saying what to stop. */
export function haltAll(root: NamedNode, states: NodeStates, world: World, reason: string): TickOutcome {
  const t = new Ticker(states, world);
  t.halt(root, reason);
  return { result: 'failure', actions: t.actions, changed: t.changed };
}

/** Stops one node (op_cancel of a leaf's launch). */
export function haltNode(
  root: NamedNode,
  nodeId: string,
  states: NodeStates,
  world: World,
  reason: string,
): TickOutcome {
  const t = new Ticker(states, world);
  let target: BtNode | undefined;
  walk(root, (n) => {
    if (n.id === nodeId) target = n;
  });
  if (target) t.halt(target, reason);
  return { result: 'running', actions: t.actions, changed: t.changed };
}

/**
 * Holds back every task leaf whose task is queued but that no agent has taken yet (a pause):
 * back to `ready`, its task back to open, so the runner launches nothing more.
 */
export function holdQueued(root: NamedNode, states: NodeStates, world: World): TickOutcome {
  const t = new Ticker(states, world);
  walk(root, (node) => {
    if (node.type !== 'task' || states[node.id!]?.status !== 'running') return;
    const taskId = nodeTaskId(node.node_id)!;
    const task = world.tasks.get(taskId);
    if (task && task.status === 'in_progress' && !task.running) {
      t.actions.push({ kind: 'unqueue', nodeId: node.id!, taskId });
      t.set(node.id!, 'ready', 'the run is paused: held back before an agent took it');
    }
  });
  return { result: 'running', actions: t.actions, changed: t.changed };
}

/** Forgets the state of a subtree, so it runs again (a retry). */
export function resetSubtree(node: BtNode, states: NodeStates): void {
  walk(node, (n) => {
    if (n.type === 'task' || n.type === 'retry') {
      // A leaf keeps its count of launches across retries (status shows it).
      const attempts = states[n.id!]?.attempts;
      delete states[n.id!];
      if (n.type === 'task' && attempts !== undefined) states[n.id!] = { status: 'idle', attempts };
    } else delete states[n.id!];
  });
}

class Ticker {
  readonly actions: TickAction[] = [];
  readonly changed: TickOutcome['changed'] = [];

  constructor(
    private readonly states: NodeStates,
    private readonly world: World,
  ) {}

  state(id: string): NodeState {
    return (this.states[id] ??= { status: 'idle' });
  }

  set(id: string, status: NodeStatus, reason?: string): void {
    const s = this.state(id);
    if (s.status === status && s.reason === reason) return;
    s.status = status;
    if (reason === undefined) delete s.reason;
    else s.reason = reason;
    s.changed_at = this.world.now;
    this.changed.push({ nodeId: id, status, ...(reason === undefined ? {} : { reason }) });
  }

  private settledAs(status: NodeStatus): TickResult {
    return status === 'success' ? 'success' : 'failure';
  }

  tick(node: BtNode, mayStart: boolean): TickResult {
    const id = node.id!;
    const s = this.state(id);
    if (terminal.has(s.status)) return this.settledAs(s.status);
    if (isLeaf(node)) return this.leaf(node, mayStart);
    switch (node.type) {
      case 'sequence': {
        this.markRunning(id);
        for (const child of node.children) {
          const r = this.tick(child, mayStart);
          if (r === 'running') return 'running';
          if (r === 'failure') return this.end(id, 'failure', `${child.id} failed`, node);
        }
        return this.end(id, 'success');
      }
      case 'selector': {
        this.markRunning(id);
        for (const child of node.children) {
          const r = this.tick(child, mayStart);
          if (r === 'running') return 'running';
          if (r === 'success') return this.end(id, 'success', undefined, node);
        }
        return this.end(id, 'failure', 'every alternative failed');
      }
      case 'parallel':
        return this.parallel(node, mayStart);
      case 'retry': {
        this.markRunning(id);
        s.attempts ??= 1;
        const r = this.tick(node.child, mayStart);
        if (r === 'success') return this.end(id, 'success');
        if (r === 'running') return 'running';
        // A child stopped on purpose (op_cancel, a timeout) is not tried again.
        if (this.states[node.child.id!]?.status === 'cancelled')
          return this.end(id, 'failure', `${node.child.id} was stopped`);
        if (s.attempts >= node.max_attempts)
          return this.end(id, 'failure', `failed ${s.attempts} time${s.attempts > 1 ? 's' : ''}`);
        s.attempts++;
        s.changed_at = this.world.now;
        this.changed.push({ nodeId: id, status: 'running', reason: `attempt ${s.attempts} of ${node.max_attempts}` });
        resetSubtree(node.child, this.states);
        return this.tick(node.child, mayStart) === 'success' ? this.end(id, 'success') : 'running';
      }
      case 'timeout': {
        this.markRunning(id);
        s.deadline ??= this.world.now + node.timeout_ms;
        const r = this.tick(node.child, mayStart);
        if (r !== 'running') return this.end(id, r);
        if (this.world.now < s.deadline) return 'running';
        this.halt(node.child, `${id}: still running after ${node.timeout_ms} ms`);
        return this.end(id, 'failure', `timed out after ${node.timeout_ms} ms`);
      }
      case 'guard': {
        const value = this.world.variables[node.condition_key];
        const ok = node.expected === undefined ? Boolean(value) : value === node.expected;
        if (!ok && s.status === 'idle') {
          this.skip(node, `guard ${node.condition_key} is ${JSON.stringify(value ?? null)}`);
          return 'failure';
        }
        this.markRunning(id);
        const r = this.tick(node.child, mayStart);
        return r === 'running' ? 'running' : this.end(id, r);
      }
    }
    return 'running';
  }

  private parallel(node: Extract<BtNode, { type: 'parallel' }>, mayStart: boolean): TickResult {
    const id = node.id!;
    this.markRunning(id);
    const s = this.state(id);
    // Under `all`, once a child failed nothing new starts; the running ones finish.
    const failing = s.reason !== undefined && node.policy === 'all';
    const results = node.children.map((c) => this.tick(c, mayStart && !failing));
    const ok = results.filter((r) => r === 'success').length;
    const failed = results.filter((r) => r === 'failure').length;
    const running = results.length - ok - failed;
    const need = node.policy === 'all' ? results.length : node.policy === 'any' ? 1 : node.policy.threshold;
    if (ok >= need) {
      for (const c of node.children) this.halt(c, `${id} already succeeded`);
      return this.end(id, 'success');
    }
    if (ok + running < need) {
      if (node.policy === 'all' && running > 0) {
        if (!failing) {
          const first = node.children.find((_, i) => results[i] === 'failure')!;
          this.set(id, 'running', `${first.id} failed: starting nothing more, waiting for the running ones`);
          for (const c of node.children) this.holdBack(c);
        }
        return 'running';
      }
      for (const c of node.children) this.halt(c, `${id} can no longer succeed`);
      return this.end(id, 'failure', `${failed} of ${results.length} failed`);
    }
    return 'running';
  }

  /** Children of a failing `all` that never started: they will not (skipped at the end). */
  private holdBack(node: BtNode): void {
    walk(node, (n) => {
      const st = this.states[n.id!];
      if (isLeaf(n) && (st === undefined || st.status === 'idle' || st.status === 'waiting' || st.status === 'ready'))
        this.set(n.id!, 'skipped', 'a sibling failed under a parallel `all`');
    });
  }

  private markRunning(id: string): void {
    const s = this.state(id);
    if (s.status === 'idle' || s.status === 'waiting' || s.status === 'ready') this.set(id, 'running');
  }

  private end(id: string, result: 'success' | 'failure', reason?: string, node?: BtNode): TickResult {
    this.set(id, result, reason);
    // Children that never ran under a node that ended are skipped, so status shows them settled.
    if (node) for (const c of childrenOf(node)) this.skipUnstarted(c, `${id} ended without it`);
    return result;
  }

  private skipUnstarted(node: BtNode, reason: string): void {
    const st = this.states[node.id!];
    if (st !== undefined && st.status !== 'idle') return;
    walk(node, (n) => {
      const s2 = this.states[n.id!];
      if (s2 === undefined || s2.status === 'idle') this.set(n.id!, 'skipped', reason);
    });
  }

  private skip(node: BtNode, reason: string): void {
    walk(node, (n) => {
      if (!terminal.has(this.state(n.id!).status)) this.set(n.id!, 'skipped', reason);
    });
  }

  /** Stops a subtree: running tasks are stopped, what never started is skipped. */
  halt(node: BtNode, reason: string): void {
    walk(node, (n) => {
      const s = this.states[n.id!];
      if (s !== undefined && terminal.has(s.status)) return;
      if (n.type === 'task' && s?.status === 'running') {
        const taskId = nodeTaskId(n.node_id)!;
        const task = this.world.tasks.get(taskId);
        if (task && (task.status === 'in_progress' || task.status === 'open'))
          this.actions.push({ kind: 'stop', nodeId: n.id!, taskId, reason });
        this.set(n.id!, 'cancelled', reason);
      } else if (s?.status === 'running' || (isLeaf(n) && s?.status === 'waiting')) {
        this.set(n.id!, 'cancelled', reason);
      } else {
        this.set(n.id!, 'skipped', reason);
      }
    });
  }

  /** Whether every node a leaf is `after` succeeded; a failed one skips the leaf. */
  private afterDone(leaf: Extract<BtNode, { type: 'task' | 'gate' | 'tool' }>): 'yes' | 'no' | 'never' {
    for (const dep of leaf.after ?? []) {
      const st = this.states[dep]?.status;
      if (st === 'success') continue;
      if (st !== undefined && terminal.has(st)) {
        this.set(leaf.id!, 'skipped', `${dep} ${st === 'failure' ? 'failed' : `was ${st}`}`);
        return 'never';
      }
      const reason = `waits for ${dep}`;
      if (this.state(leaf.id!).status !== 'waiting' || this.state(leaf.id!).reason !== reason)
        this.set(leaf.id!, 'waiting', reason);
      return 'no';
    }
    return 'yes';
  }

  private leaf(node: Extract<BtNode, { type: 'task' | 'gate' | 'tool' }>, mayStart: boolean): TickResult {
    const id = node.id!;
    const s = this.state(id);
    if (s.status !== 'running') {
      const ready = this.afterDone(node);
      if (ready === 'never') return 'failure';
      if (ready === 'no') return 'running';
    }
    if (node.type === 'gate') {
      if (s.status !== 'waiting' || s.reason === undefined || !s.reason.startsWith('waits for a person'))
        this.set(id, 'waiting', `waits for a person to approve: ${node.title}`);
      return 'running';
    }
    if (node.type === 'tool') return this.toolLeaf(node, mayStart);
    const taskId = nodeTaskId(node.node_id)!;
    const task = this.world.tasks.get(taskId);
    if (!task) {
      this.set(id, 'failure', `${node.node_id} does not exist`);
      return 'failure';
    }
    if (s.status === 'running') {
      if (task.status === 'done') return this.ended(id, 'success');
      if (task.status === 'failed' || task.status === 'cancelled')
        return this.ended(id, 'failure', `${node.node_id} ${task.status}`);
      if (task.status === 'in_progress') return 'running';
      // Someone put it back to open (a person, or a pause this process did not see): start it again.
    } else {
      if (task.status === 'done') return this.ended(id, 'success', `${node.node_id} was done already`);
      if (task.status === 'cancelled') return this.ended(id, 'failure', `${node.node_id} is cancelled`);
      if (task.status === 'in_progress' && task.assignee !== null) {
        // Queued already (by a person, or by this run before a crash): follow it, never queue it twice.
        this.set(id, 'running', `${node.node_id} was in progress already`);
        return 'running';
      }
    }
    if (!mayStart) {
      if (s.status !== 'ready') this.set(id, 'ready', 'the run is paused');
      return 'running';
    }
    const agent = this.world.agentOf(node);
    if (agent === null) return this.ended(id, 'failure', `no agent for ${node.node_id}`);
    s.attempts = (s.attempts ?? 0) + 1;
    s.op_id = this.world.opId(id, s.attempts);
    this.actions.push({ kind: 'queue', nodeId: id, taskId, agent, opId: s.op_id });
    this.set(id, 'running', `queued for ${agent}`);
    return 'running';
  }

  private toolLeaf(node: Extract<BtNode, { type: 'tool' }>, mayStart: boolean): TickResult {
    const id = node.id!;
    const s = this.state(id);
    if (s.status === 'running' && s.claimed_at !== undefined && this.world.now - s.claimed_at < TOOL_CLAIM_MS)
      return 'running';
    if (!mayStart) {
      if (s.status !== 'ready') this.set(id, 'ready', 'the run is paused');
      return 'running';
    }
    if (!this.world.canCallTools) {
      if (s.status !== 'waiting') this.set(id, 'waiting', 'waits for an MCP server or the CLI to call the tool');
      return 'running';
    }
    s.claimed_at = this.world.now;
    this.actions.push({ kind: 'callTool', nodeId: id, tool: node.tool, input: node.input ?? {} });
    this.set(id, 'running', `calling ${node.tool}`);
    return 'running';
  }

  private ended(id: string, status: 'success' | 'failure', reason?: string): TickResult {
    this.set(id, status, reason);
    return status;
  }
}
