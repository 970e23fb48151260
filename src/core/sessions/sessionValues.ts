/**
 * The values a session's fields take, as plain lists: the CLI's option lists read them without
 * building the sessions family's zod contracts (sessionContracts.ts), which `mcp serve` must not
 * load before the family's first call (docs/performance.md, "Memory").
 */
export const sessionStatuses = ['running', 'completed', 'failed'] as const;
export const dodResults = ['pending', 'merged', 'timeout', 'error'] as const;
export const sessionErrorTypes = ['timeout', 'crash', 'signal', 'unknown'] as const;

export type SessionStatus = (typeof sessionStatuses)[number];
export type DodResult = (typeof dodResults)[number];
