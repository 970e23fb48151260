import { taskStartPromptArgs } from '../../core/runtime/pm/promptContracts';
import { definePrompt } from './promptDefinition';

export const taskStartPrompt = definePrompt({
  name: 'task_start',
  title: 'Start a task',
  description:
    'Guidance for an agent starting a task: the task, its folder, the context saved so far, handoffs waiting for it and earlier runs',
  args: taskStartPromptArgs,
  render: (args, services) => services.briefings.taskStart(args.task_id, args.agent_id),
});
