import { workflowView } from '../../core/workflows/workflowViews';
import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';
import { plural } from '../../core/format';

/** `workflow://{id}`: a workflow, its plan and its tasks with their states. */
export const workflowResource: ResourceTemplateDefinition = {
  name: 'workflow',
  uriTemplate: 'workflow://{id}',
  title: 'Workflow',
  description: 'A workflow: name, description, plan, status and its tasks',
  mimeType: 'application/json',
  match: schemeMatcher('workflow'),
  list: async ({ queries }) =>
    (await queries.listWorkflows(100)).workflows.map((w) => ({
      uri: `workflow://${w.id}`,
      name: `Workflow wf-${w.id}`,
      title: w.name,
      description: `${plural(w.taskCount, 'task')}, ${w.running} running`,
      mimeType: 'application/json',
    })),
  read: async ({ queries }, id) => {
    const { workflow, tasks } = await queries.workflow(id);
    return JSON.stringify(workflowView(workflow, tasks), null, 2);
  },
  affected: (e) => (e.workflowId === null ? [] : [`workflow://${e.workflowId}`]),
  changesList: (e) => e.kind === 'workflow.started',
};
