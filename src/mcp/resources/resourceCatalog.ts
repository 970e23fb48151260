import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resourceDefinition';
import { taskResource } from './taskResource';
import { agentResource } from './agentResource';
import { memoryResource } from './memoryResource';
import { workflowResource } from './workflowResource';
import { projectResource } from './projectResource';
import { contextResource } from './contextResource';
import { handoffResource } from './handoffResource';
import { executionResource } from './executionResource';
import { executionsResource } from './executionsResource';
import { childLogsResource } from './childLogsResource';

/** Every resource template the server serves. */
export function allResourceTemplates(): ResourceTemplateDefinition[] {
  return [workflowResource, taskResource, agentResource, projectResource, contextResource, handoffResource, executionResource, executionsResource, childLogsResource];
}

/** Resources with one fixed URI. */
export function allFixedResources(): FixedResourceDefinition[] {
  return [memoryResource];
}
