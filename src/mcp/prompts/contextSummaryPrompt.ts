import { contextSummaryPromptArgs } from '../../core/runtime/pm/promptContracts';
import { definePrompt } from './promptDefinition';

export const contextSummaryPrompt = definePrompt({
  name: 'context_summary',
  title: 'Context summary',
  description: 'Everything saved about a task (contexts, handoffs, runs) with a request to summarise where it stands',
  args: contextSummaryPromptArgs,
  render: (args, services) => services.briefings.contextSummary(args.task_id),
});
