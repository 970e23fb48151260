import { parseScUri } from '../../core/coordination/resources/scUris';
import type { ResourceTemplateDefinition } from './resourceDefinition';

const prefix = 'sc://children/';

/** `sc://children/{id}/logs`: a child runtime's log as it is written (the last 1,000 entries). */
export const childLogsResource: ResourceTemplateDefinition = {
  name: 'child-logs',
  uriTemplate: 'sc://children/{id}/logs',
  title: 'Child runtime log',
  description: 'What a child runtime printed (stdout, stderr) and what the supervisor noted (start, limits, exit), with its correlation ids',
  mimeType: 'application/json',
  match: (uri) => {
    if (!uri.startsWith(prefix)) return undefined;
    const parsed = parseScUri(uri);
    return parsed.kind === 'child_logs' ? parsed.childId : undefined;
  },
  list: ({ children }) =>
    children.listLogResourcesSync().map((id) => ({
      uri: `${prefix}${id}/logs`,
      name: `Child ${id} log`,
      title: `Log of child ${id}`,
      mimeType: 'application/json',
    })),
  read: ({ children }, id) => JSON.stringify(children.readLogResource(id), null, 2),
  affected: (e) => (e.entity === 'child' && e.entityId ? [`${prefix}${e.entityId}/logs`] : []),
  changesList: (e) => e.kind === 'child.created',
};
