import type { LedgerEngine } from '../ports/store';

/**
 * `pipeline_next_action` with `wait_ms`: at a checkpoint or human gate the agent's call waits
 * until a person decides (in the editor or with the CLI, in any process) and returns the next
 * action then, so the agent resumes by itself without being prompted again. The wait is
 * `engine.waitForChange` (no CPU, no lock); each commit of any process asks the engine again.
 * The seq is taken after each ask, since asking may itself write.
 */
export interface GateAction {
  type: string;
  name?: unknown;
  report_result: unknown;
}

const atGate = (a: GateAction): boolean => a.type === 'checkpoint' || a.type === 'human_gate';

export async function nextActionWaitingForPerson<A extends GateAction>(
  engine: LedgerEngine,
  clock: () => number,
  waitMs: number,
  first: A,
  askAgain: () => Promise<A>,
): Promise<A> {
  if (waitMs <= 0 || !atGate(first)) return first;
  const deadline = clock() + waitMs;
  let current = first;
  for (;;) {
    const seen = engine.seq;
    const remaining = deadline - clock();
    if (remaining <= 0) return current;
    const waited = await engine.waitForChange(seen, { timeoutMs: remaining });
    if (waited.timedOut) return current;
    // What the first call recorded (its report of the previous action) stays in the answer.
    current = { ...(await askAgain()), report_result: first.report_result };
    if (!atGate(current) || current.name !== first.name) return current;
  }
}
