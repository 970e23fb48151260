import { handoffTemplatePromptArgs } from '../../core/runtime/pm/promptContracts';
import { definePrompt } from './promptDefinition';

export const handoffTemplatePrompt = definePrompt({
  name: 'handoff_template',
  title: 'Handoff template',
  description: 'A template for create_handoff: the latest context of the task and the agents who can take it over',
  args: handoffTemplatePromptArgs,
  render: (args, services) => services.briefings.handoffTemplate(args.task_id, args.from_agent_id),
});
