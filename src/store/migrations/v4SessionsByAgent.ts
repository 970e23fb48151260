/** v4: the Agents & Sessions view lists each agent's sessions; index them by agent. */
export const v4SessionsByAgent: readonly string[] = ['CREATE INDEX sessions_by_agent ON sessions(agent, id)'];
