/** Memory Bank entries of the task-management contract: project decisions as Markdown files with front matter. */
export const memoryStatuses = ['draft', 'active', 'archived'] as const;
export type MemoryStatus = (typeof memoryStatuses)[number];

export interface MemoryEntry {
  id: string;
  category: string;
  title: string;
  summary: string | null;
  status: MemoryStatus;
  /** The Markdown body after the front matter. */
  content: string;
  /** Workspace-relative path of the file. */
  file: string;
}

/** A file of the Memory Bank that could not be read as an entry, and why. */
export interface MemoryProblem {
  file: string;
  message: string;
}

/** Category folder names and entry ids become paths: plain names only, never `..` or a separator. */
export const memoryNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function isMemoryName(name: string): boolean {
  return memoryNamePattern.test(name) && !name.includes('..');
}
