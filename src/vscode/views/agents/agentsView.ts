import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { Views } from '../../constants';
import type { FolderLedger } from '../../ledger/folderLedger';
import type { LedgerRegistry } from '../../ledger/ledgerRegistry';
import { LedgerTreeView } from '../ledgerTreeView';
import { agentItem, agentNodes, agentProblemItem, sessionItem } from './agentItems';
import type { AgentNode, AgentProblemNode, AgentsNode, SessionNode } from './agentItems';
import { agentsFolder } from '../../../core/ledgerFiles';

/** How many ended sessions an agent shows besides its running ones. */
const recentSessions = 10;

/**
 * The Agents & Sessions view: agent → its running and recent sessions, of every folder's ledger.
 * Sessions come from the store (live, whichever process started or ended them); definitions from
 * `.agent-ledger/agents/` (agentsFolder of core/ledgerFiles.ts, which keeps YAML out of activation),
 * which the view also watches so an edited definition shows at once.
 */
export class AgentsView extends LedgerTreeView<AgentsNode> {
  constructor(registry: LedgerRegistry, log: vscode.LogOutputChannel) {
    super(Views.Agents, registry, log);
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${agentsFolder}/*`));
    this._register(watcher.onDidCreate(() => this.refresh()));
    this._register(watcher.onDidChange(() => this.refresh()));
    this._register(watcher.onDidDelete(() => this.refresh()));
  }

  protected async folderChildren(ledger: FolderLedger): Promise<AgentsNode[]> {
    const services = ledger.services;
    if (!services) return [];
    const activity = await services.agentSessions.agents();
    // Only reading: the default definitions are written by a first use (worker_command,
    // session_start), not by someone looking at the view.
    const { agents, problems } = existsSync(services.agents.folder) ? services.agents.current() : { agents: [], problems: [] };
    const broken = problems.map((problem): AgentProblemNode => ({ kind: 'agentProblem', ledger, problem }));
    return [...agentNodes(ledger, agents, activity), ...broken];
  }

  protected async childrenOf(node: AgentsNode): Promise<AgentsNode[]> {
    const services = node.ledger.services;
    if (node.kind !== 'agent' || !node.activity || !services) return [];
    return (await services.agentSessions.sessionsOf(node.name, recentSessions)).map((item): SessionNode => ({ kind: 'session', ledger: node.ledger, item, parent: node }));
  }

  protected treeItemOf(node: AgentsNode): vscode.TreeItem {
    return node.kind === 'agent' ? agentItem(node) : node.kind === 'session' ? sessionItem(node) : agentProblemItem(node);
  }

  protected parentOf(node: AgentsNode): AgentNode | undefined {
    return node.kind === 'session' ? node.parent : undefined;
  }

  protected ledgerOf(node: AgentsNode): FolderLedger {
    return node.ledger;
  }
}
