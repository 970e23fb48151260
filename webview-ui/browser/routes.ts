import type { ViewRoute } from '../../src/shared/protocol';

/** `#/task/12` → a route; anything else shows the Board. */
export function routeOf(hash: string): ViewRoute {
  const [view, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const arg = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  const id = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : undefined;
  switch (view) {
    case 'task':
      return id ? { view: 'taskDetail', taskId: id } : { view: 'board' };
    case 'pipeline':
      return arg ? { view: 'pipeline', workspace: arg } : { view: 'board' };
    case 'plan':
      return id ? { view: 'planGraph', workflowId: id } : { view: 'board' };
    case 'runs':
      return arg ? { view: 'runs', run: arg } : { view: 'runs' };
    case 'agents':
      return { view: 'agents' };
    case 'memory':
      return arg ? { view: 'memory', entry: arg } : { view: 'memory' };
    default:
      return { view: 'board' };
  }
}

export function hashOf(route: ViewRoute): string {
  switch (route.view) {
    case 'board':
      return '#/board';
    case 'taskDetail':
      return `#/task/${route.taskId}`;
    case 'pipeline':
      return `#/pipeline/${encodeURIComponent(route.workspace)}`;
    case 'planGraph':
      return `#/plan/${route.workflowId}`;
    case 'runs':
      return route.run ? `#/runs/${encodeURIComponent(route.run)}` : '#/runs';
    case 'agents':
      return '#/agents';
    case 'memory':
      return route.entry ? `#/memory/${encodeURIComponent(route.entry)}` : '#/memory';
  }
}
