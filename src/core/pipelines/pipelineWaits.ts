import type { LedgerEngine } from '../ports/store';
import { untilSomething } from '../waitFor';

/**
 * `pipeline_next_action` with `wait_ms`: at a checkpoint or human gate the agent's call waits
 * until a person decides (in the editor or with the CLI, in any process) and returns the next
 * action then, so the agent resumes by itself without being prompted again. The wait is the one
 * wait loop (waitFor.ts: no CPU, no lock); each commit of any process asks the engine again. The
 * seq is taken after each ask, since asking may itself write.
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
  let current = first;
  let asked = false;
  const next = await untilSomething(
    engine,
    clock,
    waitMs,
    async () => {
      if (!asked) {
        asked = true; // the first answer is there already: wait before asking again
        return null;
      }
      // What the first call recorded (its report of the previous action) stays in the answer.
      current = { ...(await askAgain()), report_result: first.report_result };
      return !atGate(current) || current.name !== first.name ? current : null;
    },
    { attemptWrites: true },
  );
  return next ?? current;
}
