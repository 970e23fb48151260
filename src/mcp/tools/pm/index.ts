import type { ToolFamily } from '../../toolDefinition';

/** Agents that run by themselves: login, their task, handoffs, execution logs (its tools come with the runner). */
export const pmFamily: ToolFamily = {
  name: 'pm',
  description: 'Agent PM: agent login, handoffs, execution logs',
  enabledByDefault: false,
  tools: [],
};
