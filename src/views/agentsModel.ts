import type { Services } from '../app/services';
import type { AgentItem, AgentsModel } from '../shared/protocol';

/** Sessions listed per agent (its running ones, then its latest ended). */
const recentSessions = 8;

/** Agents (their definitions, and names seen only in sessions), their sessions, cost, what runs, handoffs waiting. */
export async function agentsModel(services: Services, folder: { name: string; root: string }): Promise<AgentsModel> {
  const [defined, activity, costs, running, handoffs] = await Promise.all([
    services.agents.list(),
    services.agentSessions.agents(),
    services.costs.agents(),
    services.instances.running(),
    services.instances.pendingHandoffs(),
  ]);
  const cost = new Map(costs.map((c) => [c.agent, c]));
  const names = [
    ...defined.agents.map((a) => a.name),
    ...activity.map((a) => a.agent).filter((n) => !defined.agents.some((a) => a.name === n)),
  ];
  const agents: AgentItem[] = [];
  for (const name of names) {
    const def = defined.agents.find((a) => a.name === name);
    const sessions = await services.agentSessions.sessionsOf(name, recentSessions);
    agents.push({
      name,
      client: def?.client ?? sessions[0]?.session.client ?? null,
      model: def?.model ?? null,
      description: def?.description ?? null,
      scope: def ? def.scope : null,
      cost: cost.get(name) ?? null,
      sessions: sessions.map((s) => ({
        id: s.session.id,
        taskId: s.session.taskId,
        taskTitle: s.taskTitle,
        status: s.session.status,
        startedAt: s.session.startedAt,
        endedAt: s.session.endedAt,
        worktree: s.worktreeActive ? s.session.worktree : null,
        ...(s.liveness ? { liveness: s.liveness } : {}),
      })),
    });
  }
  return {
    folder: folder.root,
    folderName: folder.name,
    agents,
    running,
    handoffs,
    problems: defined.problems,
  };
}
