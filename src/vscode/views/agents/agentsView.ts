import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { agentItem, agentNodes, agentProblemItem, sessionItem } from './agentItems';
import type { AgentProblemNode, AgentsNode as SessionTreeNode, SessionNode } from './agentItems';
import { agentsFolder } from '../../../core/ledgerFiles';
import { livenessRecheckMs } from '../../../views/agentText';
import { errorMessage } from '../../../core/errors';
import { executionItem, executionsGroupItem, handoffItem, instanceItem, runtimeGroupItem } from './runtimeItems';
import type {
  ExecutionNode,
  ExecutionsGroupNode,
  HandoffNode,
  InstanceNode,
  RuntimeGroupNode,
  RuntimeNode,
} from './runtimeItems';

/** How many ended sessions an agent shows besides its running ones. */
const recentSessions = 10;

/** How many execution logs an agent shows, newest first. */
const recentExecutions = 20;

export type AgentsNode = SessionTreeNode | RuntimeNode;

/**
 * The Agents & Sessions view, per folder: the agent instances running now and the handoffs
 * waiting for an agent (when there are any), then every agent → its execution logs with their
 * cost, and its running and recent sessions. Everything comes from the store (live, whichever
 * process launched, ended or handed over); definitions from `.agent-ledger/agents/` (agentsFolder
 * of core/ledgerFiles.ts, which keeps YAML out of activation), which the view also watches.
 */
export class AgentsView extends LedgerTreeView<AgentsNode> {
  private recheck: ReturnType<typeof setTimeout> | undefined;
  /** What each folder's running sessions looked like when the view last read them (livenessSignature). */
  private readonly shown = new Map<FolderLedger, Promise<string>>();

  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Agents, registry, log);
    this._register({ dispose: () => clearTimeout(this.recheck) });
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${agentsFolder}/*`));
    this._register(watcher.onDidCreate(() => this.refresh()));
    this._register(watcher.onDidChange(() => this.refresh()));
    this._register(watcher.onDidDelete(() => this.refresh()));
  }

  protected async folderChildren(ledger: FolderLedger): Promise<AgentsNode[]> {
    const services = ledger.services;
    if (!services) return [];
    // Taken before the rows are read: a process that dies after it shows in the next look.
    const signature = services.agentSessions.livenessSignature();
    this.shown.set(ledger, signature);
    await signature.catch(() => undefined);
    const [activity, instances, handoffs, costs, idle] = await Promise.all([
      services.agentSessions.agents(),
      services.instances.running(),
      services.instances.pendingHandoffs(),
      services.costs.agents(),
      services.holds.idleReasons(),
    ]);
    // Only reading: the default definitions are written by a first use (worker_command,
    // session_start), not by someone looking at the view.
    const { agents, problems } = existsSync(services.agents.folder)
      ? services.agents.current()
      : { agents: [], problems: [] };
    // The agent rows count stale sessions apart: look again while a process they counted runs.
    if (activity.some((a) => a.alive > 0)) this.recheckSoon();
    const broken = problems.map((problem): AgentProblemNode => ({ kind: 'agentProblem', ledger, problem }));
    const groups: RuntimeGroupNode[] = [];
    if (instances.length) groups.push({ kind: 'runtimeGroup', ledger, group: 'instances', instances, handoffs });
    if (handoffs.length) groups.push({ kind: 'runtimeGroup', ledger, group: 'handoffs', instances, handoffs });
    return [...groups, ...agentNodes(ledger, agents, activity, costs, idle), ...broken];
  }

  protected async childrenOf(node: AgentsNode): Promise<AgentsNode[]> {
    const services = node.ledger.services;
    if (!services) return [];
    switch (node.kind) {
      case 'runtimeGroup':
        return node.group === 'instances'
          ? node.instances.map((instance): InstanceNode => ({
              kind: 'instance',
              ledger: node.ledger,
              instance,
              parent: node,
            }))
          : node.handoffs.map((handoff): HandoffNode => ({
              kind: 'handoff',
              ledger: node.ledger,
              handoff,
              parent: node,
            }));
      case 'executions':
        return (await services.executions.list({ agent: node.agent, limit: recentExecutions })).map(
          (log): ExecutionNode => ({ kind: 'execution', ledger: node.ledger, log, parent: node }),
        );
      case 'agent': {
        const executions: ExecutionsGroupNode[] =
          (node.cost?.runs ?? 0) > 0
            ? [{ kind: 'executions', ledger: node.ledger, agent: node.name, parent: node }]
            : [];
        const sessions = node.activity ? await services.agentSessions.sessionsOf(node.name, recentSessions) : [];
        if (sessions.some((s) => s.liveness === 'alive')) this.recheckSoon();
        return [
          ...executions,
          ...sessions.map((item): SessionNode => ({ kind: 'session', ledger: node.ledger, item, parent: node })),
        ];
      }
      default:
        return [];
    }
  }

  /**
   * A process that dies writes nothing to the ledger, so no change wakes the view: while a listed
   * session's process runs, the view looks again (a read of /proc per session), and redraws only
   * when a process it showed has gone: a redraw every few seconds would move the rows under a
   * person's pointer.
   */
  private recheckSoon(): void {
    if (this.recheck) return;
    this.recheck = setTimeout(() => {
      void this.lookAgain().catch((err: unknown) => this.log.warn(`Agents & Sessions: ${errorMessage(err)}`));
    }, livenessRecheckMs);
  }

  private async lookAgain(): Promise<void> {
    let changed = false;
    let alive = false;
    for (const [ledger, shown] of this.shown) {
      const sessions = ledger.services?.agentSessions;
      if (!sessions) continue;
      const [before, now] = await Promise.all([shown.catch(() => ''), sessions.livenessSignature()]);
      changed ||= now !== before;
      alive ||= now.includes(':alive');
    }
    this.recheck = undefined;
    if (changed) this.refresh();
    else if (alive) this.recheckSoon();
  }

  protected treeItemOf(node: AgentsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent':
        return agentItem(node);
      case 'session':
        return sessionItem(node);
      case 'agentProblem':
        return agentProblemItem(node);
      case 'runtimeGroup':
        return runtimeGroupItem(node);
      case 'instance':
        return instanceItem(node);
      case 'handoff':
        return handoffItem(node);
      case 'executions':
        return executionsGroupItem(node);
      case 'execution':
        return executionItem(node);
    }
  }

  protected parentOf(node: AgentsNode): AgentsNode | undefined {
    return node.kind === 'session' ||
      node.kind === 'instance' ||
      node.kind === 'handoff' ||
      node.kind === 'executions' ||
      node.kind === 'execution'
      ? node.parent
      : undefined;
  }

  protected ledgerOf(node: AgentsNode): FolderLedger {
    return node.ledger;
  }
}
