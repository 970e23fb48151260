/**
 * The script a scripted model follows: one action per answer of the model, each written once for
 * every client. An action names what the model does (call one of our MCP tools, run a shell
 * command, edit a file, say something and stop); each client's own tools say how it is done
 * (clientTools.ts). A step can be a function of the conversation so far, to use what a tool
 * returned (take the task id from get_my_task's answer).
 */
import type { Conversation, ToolCall } from './conversation';

export type Action =
  /** Answer with text and end the turn: the run ends (`claude -p`, `codex exec`, `gemini -p`). */
  | { say: string }
  /** Call an MCP tool by its own name (`task_create`): the client's prefix is found in its tool list. */
  | { callTool: string; args?: Record<string, unknown>; server?: string }
  /** Run a command with the client's own shell tool. */
  | { shell: string }
  /** Replace `oldText` (found once in the file) with `newText`, with the client's own edit tool. */
  | { editFile: string; oldText: string; newText: string }
  /** Create or overwrite a file with the client's own write tool. */
  | { writeFile: string; content: string }
  /** Call one of the client's tools by its exact name (anything the actions above do not cover). */
  | { clientTool: string; args: unknown };

/** An action, or a function of what the model was shown that returns one (null: skip this step). */
export type Step = Action | ((conversation: Conversation) => Action | null | undefined);

/** One answer of the model: text, a tool call, or both. */
export interface ModelTurn {
  text?: string;
  call?: ToolCall & PlannedCall;
}

/**
 * A call as the API carries it: a function call (the default), a free-form call whose input is
 * text (Codex's apply_patch), or Codex's client-run tool search (`tool_search_call`). `namespace`:
 * the tool namespace it belongs to (Codex lists each MCP server's tools as one).
 */
export interface PlannedCall {
  name: string;
  args: unknown;
  kind?: 'function' | 'freeform' | 'toolSearch';
  namespace?: string;
}

/** How an action is done with a client's own tools: the call, or one that must come first. */
export type Plan = { call: PlannedCall; prerequisite?: boolean } | { error: string };

export type Planner = (action: Exclude<Action, { say: string }>, conversation: Conversation) => Plan;

/** What the model answers once the script is done. */
export const scriptDone = 'Done (the scripted model has no more steps).';

/** Gives up on a step whose prerequisite (a tool search) did not make its tool callable. */
const maxPrerequisites = 3;

export interface ScriptEvent {
  /** The model turn it answered (the number of model answers already in the request). */
  turn: number;
  /** The script step (index) it came from; -1 once the script is done. */
  step: number;
  action?: Action;
  reply: ModelTurn;
  prerequisite?: boolean;
}

/**
 * Walks the steps. An answer is computed once per model turn: a client that retries a request
 * gets the same answer again and the script does not advance.
 */
export class ScriptRunner {
  private cursor = 0;
  private pending: { action: Action; step: number; attempts: number } | undefined;
  private readonly answered = new Map<number, ModelTurn>();
  private ids = 0;
  /** Every answer given, in order. */
  readonly events: ScriptEvent[] = [];
  /** Steps that could not be done (a tool the client does not offer, a step function that threw). */
  readonly errors: string[] = [];

  constructor(private readonly steps: readonly Step[]) {}

  /** Whether every step has been answered. */
  get finished(): boolean {
    return this.cursor >= this.steps.length && !this.pending;
  }

  next(conversation: Conversation, plan: Planner, idPrefix: string): ModelTurn {
    const cached = this.answered.get(conversation.modelTurns);
    if (cached) return cached;
    const reply = this.compute(conversation, plan, idPrefix);
    this.answered.set(conversation.modelTurns, reply);
    return reply;
  }

  private compute(conversation: Conversation, plan: Planner, idPrefix: string): ModelTurn {
    const turn = conversation.modelTurns;
    for (;;) {
      let current = this.pending;
      if (!current) {
        if (this.cursor >= this.steps.length) return this.record({ turn, step: -1, reply: { text: scriptDone } });
        const step = this.cursor++;
        const source = this.steps[step];
        let action: Action | null | undefined;
        try {
          action = typeof source === 'function' ? source(conversation) : source;
        } catch (error) {
          return this.fail(
            turn,
            step,
            undefined,
            `step ${step} threw: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (!action) continue;
        current = { action, step, attempts: 0 };
      }
      const { action, step } = current;
      this.pending = undefined;
      if ('say' in action) return this.record({ turn, step, action, reply: { text: action.say } });
      const planned = plan(action, conversation);
      if ('error' in planned) return this.fail(turn, step, action, planned.error);
      if (planned.prerequisite) {
        if (current.attempts >= maxPrerequisites)
          return this.fail(
            turn,
            step,
            action,
            `${JSON.stringify(action)} still cannot be done after ${maxPrerequisites} preparatory calls`,
          );
        this.pending = { ...current, attempts: current.attempts + 1 };
      }
      const call = { id: `${idPrefix}${++this.ids}`, ...planned.call };
      return this.record({ turn, step, action, reply: { call }, prerequisite: planned.prerequisite });
    }
  }

  private fail(turn: number, step: number, action: Action | undefined, message: string): ModelTurn {
    this.errors.push(message);
    // The remaining steps would act on a state the test did not expect: stop here.
    this.cursor = this.steps.length;
    return this.record({ turn, step, action, reply: { text: `Scripted model error: ${message}` } });
  }

  private record(event: ScriptEvent): ModelTurn {
    this.events.push(event);
    return event.reply;
  }
}
