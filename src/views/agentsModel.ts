import type { Services } from '../app/services';
import type { AgentItem, AgentsModel } from '../shared/protocol';
import { parseInput } from '../core/contracts/inputValidation';
import { taskKey } from '../core/ids';
import { sessionEndInput } from '../core/sessions/sessionContracts';
import { dodResults } from '../core/sessions/sessionValues';
import { sessionCountText } from './agentText';

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
    const seen = activity.find((a) => a.agent === name);
    agents.push({
      name,
      client: def?.client ?? sessions[0]?.session.client ?? null,
      model: def?.model ?? null,
      description: def?.description ?? null,
      scope: def ? def.scope : null,
      cost: cost.get(name) ?? null,
      sessionCounts: sessionCountText(seen),
      sessions: sessions.map((s) => ({
        id: s.session.id,
        taskId: s.session.taskId,
        taskTitle: s.taskTitle,
        status: s.session.status,
        startedAt: s.session.startedAt,
        endedAt: s.session.endedAt,
        worktree: s.worktreeActive ? s.session.worktree : null,
        ...(s.liveness ? { liveness: s.liveness } : {}),
        ...(s.session.endedBy ? { endedBy: s.session.endedBy } : {}),
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
    dodResults,
  };
}

/** Whether a process the page shows running may die unseen: the page then looks again (livenessRecheckMs). */
export function watchesLiveness(model: AgentsModel): boolean {
  return model.agents.some((a) => a.sessions.some((s) => s.liveness === 'alive'));
}

/**
 * A person's End Session from a page: session_end's service (the editor's End Session makes the
 * same call), validated as the tool's input and recorded as the person, never with an agent's token.
 */
export async function endSessionAs(
  services: Services,
  person: string,
  message: { sessionId: unknown; exitCode: unknown; dodResult?: unknown },
): Promise<string> {
  const input = parseInput('session_end', sessionEndInput, {
    sessionId: message.sessionId,
    exitCode: message.exitCode,
    ...(message.dodResult === undefined || message.dodResult === '' ? {} : { dodResult: message.dodResult }),
  });
  const ended = await services.sessions.end(input, person);
  return `Session ${ended.id} ended by ${person}: ${ended.status} (exit ${ended.exitCode}${ended.dodResult ? `, ${ended.dodResult}` : ''})${ended.taskStatus ? `; ${taskKey(ended.taskId)} is now ${ended.taskStatus}` : ''}.`;
}
