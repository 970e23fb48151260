import { memoryFolder } from '../../core/ledgerFiles';
import type { FixedResourceDefinition } from './resourceDefinition';

/** `project://memory`: the Memory Bank context given to agents, the same text as memory_preview. */
export const memoryResource: FixedResourceDefinition = {
  uri: 'project://memory',
  name: 'Memory Bank',
  title: 'Memory Bank',
  description: 'Memory Bank summary and references',
  mimeType: 'text/markdown',
  read: ({ memory }) =>
    memory.currentPreview().context ||
    `## Memory Bank Summary\n(no active entries yet: add one with memory_add, or as ${memoryFolder}/<category>/<id>.md with status: active)\n`,
  affected: (e) => e.entity === 'memory',
  // Hand edits of the files write nothing to the store: watch the folder itself.
  watch: ({ memory }, onChange) => memory.watch(onChange),
};
