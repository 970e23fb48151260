import { LedgerError } from '../../core/errors';
import type { ResourceTemplateDefinition } from './resourceDefinition';
import { schemeMatcher } from './resourceDefinition';

/** `project://{id}`: a project of the agent PM (id `prj-1`, `1` or its name). `project://memory` stays the Memory Bank's. */
export const projectResource: ResourceTemplateDefinition = {
  name: 'project',
  uriTemplate: 'project://{id}',
  title: 'Project',
  description: 'A project of the agent PM: working directory, status, assigned agents and task counts (project://memory is the Memory Bank)',
  mimeType: 'application/json',
  match: schemeMatcher('project'),
  list: async ({ projects }) =>
    (await projects.list()).map((p) => ({
      uri: `project://${p.project_id}`,
      name: `Project ${p.project_id}`,
      title: p.name,
      description: `Project ${p.name} (${p.status})`,
      mimeType: 'application/json',
    })),
  read: async ({ projects }, id) => {
    if (!id.trim()) throw new LedgerError('NotFound', 'project:// needs a project id');
    return JSON.stringify(await projects.get(id), null, 2);
  },
  affected: (e) => (e.entity === 'project' && e.entityId ? [`project://prj-${e.entityId}`, `project://${e.entityId}`] : []),
  changesList: (e) => e.kind === 'project.created',
};
