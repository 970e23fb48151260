/**
 * A child runtime's states, apart from the tool contracts (childContracts.ts builds the family's
 * zod schemas when loaded; the service and the CLI need only these, and an idle server that never
 * lists children should not hold the schemas).
 */
export const childStates = ['starting', 'running', 'exited', 'failed', 'lost'] as const;

/** Whether a child in `state` is (or is about to be) a process: starting or running. */
export function childIsLive(state: string): boolean {
  return state === 'starting' || state === 'running';
}
