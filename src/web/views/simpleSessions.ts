import { errorMessage, LedgerError } from '../../core/errors';
import { parseId, workflowKey } from '../../core/ids';
import type { LogEntry } from '../../core/ports/processes';
import type { AgentsWebviewMessage, PlanGraphWebviewMessage, PlanRunMessage, RunOutput } from '../../shared/protocol';
import { planRunView, steerPlanRun } from '../../views/planRunModel';
import { agentsModel, endSessionAs, watchesLiveness } from '../../views/agentsModel';
import { livenessRecheckMs } from '../../views/agentText';
import { memoryEntryText, memoryModel } from '../../views/memoryModel';
import { runsModel } from '../../views/runsModel';
import type { ViewContext, ViewSession } from '../viewSession';
import { ModelSession } from './modelSession';

/**
 * A workflow's plan graph, laid out by the server (dagre), live task states and its newest plan
 * run; Pause, Resume, Cancel and a gate's Approve as the page's person.
 */
export function planGraphSession(ctx: ViewContext, workflowId: number): ViewSession {
  const session: ModelSession = new ModelSession(
    ctx,
    async () => {
      const [graph, run] = [
        await ctx.services.board.planGraph(workflowId),
        await ctx.services.planRuns.latestOfGraph(workflowKey(workflowId)),
      ];
      return {
        type: 'planGraph',
        model: { folder: ctx.folder.root, folderName: ctx.folder.name, ...graph, run: run && planRunView(run) },
      };
    },
    async (raw) => {
      const message = raw as unknown as PlanGraphWebviewMessage;
      if (message.type === 'planRun' || message.type === 'planGate') {
        await steerFromPage(ctx, message);
        session.changed();
        return true;
      }
      if (message.type !== 'openTask') return false;
      ctx.navigate({ view: 'taskDetail', taskId: parseId('task', message.taskId) });
      return true;
    },
  );
  return session;
}

/** A person's plan-run action from a page: recorded as the page's person (never an agent's token), the outcome said on the page. */
export async function steerFromPage(ctx: ViewContext, message: PlanRunMessage): Promise<void> {
  try {
    ctx.post({ type: 'acted', ok: true, text: await steerPlanRun(ctx.services, ctx.person, message) });
  } catch (err) {
    if (!LedgerError.is(err)) throw err;
    ctx.post({ type: 'acted', ok: false, text: err.message });
  }
}

/**
 * Agents and sessions, what runs, handoffs waiting; End Session as the page's person. A process
 * that dies writes nothing to the ledger, so while the page shows a live one the server looks
 * again every livenessRecheckMs (as the editor's tree does): the row turns stale without a reload.
 */
export class AgentsSession extends ModelSession {
  private recheck: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(ctx: ViewContext) {
    super(
      ctx,
      async () => {
        const model = await agentsModel(ctx.services, ctx.folder);
        if (watchesLiveness(model)) this.recheckSoon();
        return { type: 'agents', model };
      },
      async (raw) => {
        const message = raw as unknown as AgentsWebviewMessage;
        if (message.type === 'openTask') {
          ctx.navigate({ view: 'taskDetail', taskId: parseId('task', message.taskId) });
          return true;
        }
        if (message.type !== 'endSession') return false;
        try {
          ctx.post({ type: 'acted', ok: true, text: await endSessionAs(ctx.services, ctx.person, message) });
        } catch (err) {
          if (!LedgerError.is(err)) throw err;
          ctx.post({ type: 'acted', ok: false, text: err.message });
        }
        this.changed();
        return true;
      },
    );
  }

  override dispose(): void {
    this.disposed = true;
    clearTimeout(this.recheck);
    super.dispose();
  }

  private recheckSoon(): void {
    if (this.recheck || this.disposed) return;
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      this.changed();
    }, livenessRecheckMs);
  }
}

/** The Memory Bank: its files, followed (a hand edit shows too), and one entry's text. */
export class MemorySession extends ModelSession {
  private readonly watching: { dispose(): void };

  constructor(ctx: ViewContext) {
    super(
      ctx,
      async () => ({ type: 'memory', model: memoryModel(ctx.services, ctx.folder) }),
      async (message) => {
        if (message.type !== 'openEntry' || typeof message.key !== 'string') return false;
        const content = memoryEntryText(ctx.services, message.key);
        if (content === null) ctx.post({ type: 'error', message: `no Memory Bank entry ${message.key}` });
        else ctx.post({ type: 'entry', key: message.key, content });
        return true;
      },
    );
    this.watching = ctx.services.memory.watch(() => this.changed());
  }

  override dispose(): void {
    this.watching.dispose();
    super.dispose();
  }
}

/** Runs with their cost, and one run's output followed as its log grows. */
export class RunsSession extends ModelSession {
  private following: { run: string; stop: () => void } | undefined;

  constructor(ctx: ViewContext) {
    super(
      ctx,
      async () => ({ type: 'runs', model: await runsModel(ctx.services, ctx.folder) }),
      async (message) => {
        if (message.type === 'openTask') {
          ctx.navigate({ view: 'taskDetail', taskId: parseId('task', message.taskId) });
          return true;
        }
        if (message.type !== 'openRun') return false;
        await this.follow(typeof message.run === 'string' ? message.run : null);
        return true;
      },
    );
  }

  override dispose(): void {
    this.following?.stop();
    super.dispose();
  }

  private async follow(run: string | null): Promise<void> {
    this.following?.stop();
    this.following = undefined;
    if (!run) return;
    const send = (entries: LogEntry[], reset: boolean, missing: string | null = null): void => {
      const output: RunOutput = {
        run,
        lines: entries.map((e) => ({ stream: e.stream, text: e.message })),
        reset,
        missing,
      };
      this.ctx.post({ type: 'runOutput', ...output });
    };
    try {
      const slice = await this.ctx.services.instances.readLog(run);
      send(slice.entries.slice(-2000), true, slice.logFile ? null : (slice.missing ?? 'no log file'));
      if (!slice.logFile) return;
      const follower = this.ctx.services.instances.followLog(
        slice.logFile,
        (entries) => send(entries, false),
        slice.nextOffset,
      );
      this.following = { run, stop: () => follower.dispose() };
    } catch (err) {
      send([], true, errorMessage(err));
    }
  }
}
