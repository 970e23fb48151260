import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { parseId, taskKey } from '../../core/ids';
import { parseInput } from '../../core/contracts/inputValidation';
import type { AgentSession } from '../../core/sessions/agentSessions';
import type { SessionView } from '../../core/sessions/sessionRepo';
import type { DodResult } from '../../core/sessions/sessionContracts';
import type { CleanupResult, KeptWorktree, RemovedWorktree } from '../../core/workers/workerContracts';
import { formatBytes, plural, truncate } from '../../core/format';
import type { FolderLedger } from '../ledger/folderLedger';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { loadDomain } from '../ledger/loadDomain';
import type { SessionNode } from '../views/agents/agentItems';
import { personName } from '../../views/person';
import { askChoice, askText, schemaCheck } from './prompts';
import type { Choice } from './prompts';

/** A session a command acts on: a view row, `{ folder, sessionId }` (tests, other extensions), or nothing (the palette: the person picks). */
export type SessionArg = SessionNode | { folder: string; sessionId: number | string } | undefined;

/** End Session may be given its answers (tests, other extensions); what is missing is asked. */
export type EndSessionArg =
  SessionArg | { folder: string; sessionId: number | string; exitCode?: number; dodResult?: DodResult | null };

interface ResolvedSession {
  ledger: FolderLedger;
  item: AgentSession;
}

const dodHints: Record<DodResult, string> = {
  pending: 'waiting for review or merge',
  merged: 'the work is merged: the task is done',
  timeout: 'ran out of time: the session fails',
  error: 'the Definition of Done failed: the session fails',
};

/** How many worktrees a cleanup confirmation lists before "…and N more". */
const listed = 20;

/** The Agents & Sessions view's actions: open a session's worktree, end a session, clean up worktrees. */
export class SessionCommands {
  constructor(private readonly registry: LedgerRegistry) {}

  /** Opens the session's worktree in a new window, where its agent works on its branch. */
  async openWorktree(arg: SessionArg): Promise<{ folder: string } | undefined> {
    const target = await this.resolve(arg, { withWorktree: true }, 'Open the worktree of which session?');
    if (!target) return undefined;
    const { session } = target.item;
    if (!session.worktree)
      throw new LedgerError('NotFound', `session ${session.id} works in the workspace itself, not in a worktree`, {
        sessionId: session.id,
      });
    // Workspace-relative, or absolute in the folder the user chose (agentLedger.worktreesDir).
    const folder = path.resolve(target.ledger.root, session.worktree);
    if (!target.item.worktreeActive || !existsSync(folder)) {
      throw new LedgerError(
        'NotFound',
        `the worktree of session ${session.id} (${session.worktree}) is gone: it was cleaned up or deleted`,
        { sessionId: session.id, worktree: session.worktree },
      );
    }
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder), { forceNewWindow: true });
    return { folder };
  }

  /** Asks the exit code and the Definition of Done result, then session_end's service, as the person. */
  async endSession(arg: EndSessionArg): Promise<(SessionView & { taskStatus?: string }) | undefined> {
    const target = await this.resolve(arg, { running: true }, 'End which running session?');
    if (!target) return undefined;
    const { session, taskTitle } = target.item;
    if (session.status !== 'running') {
      void vscode.window.showInformationMessage(`Session ${session.id} already ended (${session.status}).`);
      return undefined;
    }
    if (target.item.liveness === 'elsewhere') {
      // This machine cannot see that process: ending it is the person's call, never a silent one.
      const machine = session.process.machine ?? 'another machine';
      const go = await vscode.window.showWarningMessage(
        `Session ${session.id} runs on ${machine}, which this machine cannot check. End it anyway?`,
        { modal: true, detail: 'End it only if you know its agent stopped there.' },
        'End Session',
      );
      if (go !== 'End Session') return undefined;
    }
    const given = arg && !('kind' in arg) ? (arg as { exitCode?: number; dodResult?: DodResult | null }) : undefined;
    const domain = loadDomain();
    const schema = domain.sessionEndInput;
    const title = `End session ${session.id}: ${session.agent} on ${taskKey(session.taskId)} ${truncate(taskTitle, 50)}`;
    const exitCode =
      given?.exitCode ??
      Number(
        await askText(
          { title, step: 1, totalSteps: 2 },
          {
            prompt: 'Exit code of the worker process (0: it succeeded)',
            value: '0',
            validate: schemaCheck(schema, 'exitCode', asNumber),
          },
        ),
      );
    const dodChoices: Choice<DodResult | null>[] = [
      { label: 'No result', description: 'leave the Definition of Done open', value: null },
      ...domain.dodResults.map((r): Choice<DodResult | null> => ({ label: r, description: dodHints[r], value: r })),
    ];
    const dodResult =
      given && given.dodResult !== undefined
        ? given.dodResult
        : await askChoice({ title, step: 2, totalSteps: 2 }, dodChoices, {
            placeholder: 'Definition of Done result',
            active: exitCode === 0 ? 'merged' : null,
          });
    const ended = await (
      await target.ledger.require()
    ).sessions.end(
      parseInput('session_end', schema, { sessionId: session.id, exitCode, dodResult: dodResult ?? undefined }),
      personName(),
    );
    const outcome = [`exit ${ended.exitCode}`, ...(ended.dodResult ? [ended.dodResult] : [])].join(', ');
    void vscode.window.showInformationMessage(
      `Ended session ${ended.id}: ${ended.status} (${outcome})${ended.taskStatus ? `; ${taskKey(ended.taskId)} is now ${ended.taskStatus}` : ''}.`,
    );
    return ended;
  }

  /**
   * A dry run of worktree_cleanup's retention rule first (merged into HEAD, or unused for 14
   * days); the confirmation lists what would go and the disk it frees, then exactly those are
   * removed. Worktrees with a running session or uncommitted changes are kept.
   */
  async cleanUpWorktrees(arg?: { folder?: string }): Promise<CleanupResult | undefined> {
    const ledger = await this.registry.pick(
      arg?.folder === undefined ? undefined : vscode.Uri.file(arg.folder),
      'Clean up the worktrees of which folder?',
    );
    if (!ledger) return undefined;
    const services = await ledger.require();
    const schema = loadDomain().worktreeCleanupInput;
    const plan = await services.worktreeCleanup.run(parseInput('worktree_cleanup', schema, { dryRun: true }));
    if (plan.removed.length === 0) {
      const kept = plan.skipped.length ? ` Kept ${plan.skipped.length}: ${plan.skipped.map(keptLine).join('; ')}.` : '';
      void vscode.window.showInformationMessage(`No worktree of ${ledger.name} to clean up.${kept}`);
      return plan;
    }
    const n = plan.removed.length;
    const lines = plan.removed.slice(0, listed).map(removedLine);
    if (n > listed) lines.push(`…and ${n - listed} more`);
    if (plan.skipped.length) lines.push('', 'Kept:', ...plan.skipped.map(keptLine));
    const button = `Remove ${plural(n, 'Worktree')}`;
    const choice = await vscode.window.showWarningMessage(
      `Remove ${plural(n, 'worktree')} and free ${formatBytes(plan.freedBytes)}?`,
      {
        modal: true,
        detail: `${lines.join('\n')}\n\nMerged branches are deleted with their worktree; other branches stay.`,
      },
      button,
    );
    if (choice !== button) return undefined;
    // Exactly what was confirmed: one removal per listed task (a running session or new changes still keep it).
    const result: CleanupResult = { removed: [], skipped: [], freedBytes: 0, dryRun: false };
    for (const planned of plan.removed) {
      const done = await services.worktreeCleanup.run(
        parseInput('worktree_cleanup', schema, { taskId: planned.taskId }),
      );
      result.removed.push(...done.removed);
      result.skipped.push(...done.skipped);
      result.freedBytes += done.freedBytes;
    }
    const kept = result.skipped.length
      ? ` Kept ${result.skipped.length}: ${result.skipped.map(keptLine).join('; ')}.`
      : '';
    void vscode.window.showInformationMessage(
      `Removed ${plural(result.removed.length, 'worktree')}, freed ${formatBytes(result.freedBytes)}.${kept}`,
    );
    return result;
  }

  private ledgerAt(folder: string): FolderLedger {
    const ledger = this.registry.byPath(folder);
    if (!ledger) throw new LedgerError('NotFound', `${folder} is not a folder of this window's workspace`);
    return ledger;
  }

  private async resolve(
    arg: SessionArg,
    filter: { running?: boolean; withWorktree?: boolean },
    placeHolder: string,
  ): Promise<ResolvedSession | undefined> {
    if (arg) {
      // A view row is read again: another process may have ended the session or removed its worktree since it was drawn.
      const ledger = 'kind' in arg ? arg.ledger : this.ledgerAt(arg.folder);
      const id = 'kind' in arg ? arg.item.session.id : parseId('session', arg.sessionId);
      const item = await (await ledger.require()).agentSessions.session(id);
      if (!item) throw new LedgerError('SessionNotFound', `Session ${id} not found`, { sessionId: id });
      return { ledger, item };
    }
    const ledger = await this.registry.pick(undefined, 'Which folder?');
    if (!ledger) return undefined;
    const sessions = await (await ledger.require()).agentSessions.latest(filter);
    if (sessions.length === 0) {
      void vscode.window.showInformationMessage(
        filter.running ? `No session is running in ${ledger.name}.` : `No session of ${ledger.name} has a worktree.`,
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      sessions.map((item) => ({
        label: item.taskTitle,
        description: `session ${item.session.id} · ${item.session.agent} · ${taskKey(item.session.taskId)}${item.session.branch ? ` · ${item.session.branch}` : ''}`,
        item,
      })),
      { placeHolder, matchOnDescription: true },
    );
    return picked ? { ledger, item: picked.item } : undefined;
  }
}

/** "3" → 3 (and "1.5" → 1.5), so the schema judges a number; anything else stays text and is refused with what was typed. */
function asNumber(text: string): unknown {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
}

function removedLine(w: RemovedWorktree): string {
  return `${w.worktree} — ${w.reason}, ${formatBytes(w.freedBytes)}, branch ${w.branch}`;
}

function keptLine(w: KeptWorktree): string {
  return `${w.worktree} (${w.reason})`;
}
