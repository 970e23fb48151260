// A scripted orchestrator inside the extension host (the ideas of test/mcp/pipelineDriver.ts on
// Copilot's path): it calls the pipeline tools through vscode.lm.invokeTool, executes exactly the
// action it is given — writes the artifact, reports back — and never chooses a phase.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { folder, ledgerTools, sleep, until } from './hostHelpers';

export type Action = Record<string, any> & { type: string; display_message: string };
export interface ToolError {
  reason: string;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * Calls one of our tools; an error result comes back as `{ error }` instead of a rejection, so
 * a test can look at the refusal (VS Code may also throw on an MCP error result: both are read).
 */
export async function attempt<T = Record<string, any>>(
  tool: string,
  input: Record<string, unknown>,
): Promise<{ value?: T; error?: ToolError }> {
  const info = ledgerTools().get(tool);
  if (!info) throw new Error(`tool ${tool} is not available; have ${[...ledgerTools().keys()].join(', ')}`);
  let text: string;
  try {
    const result = await vscode.lm.invokeTool(info.name, { input, toolInvocationToken: undefined });
    // A result is its JSON; an error is prose first, then its JSON.
    text =
      result.content
        .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
        .map((p) => p.value)
        .at(-1) ?? '{}';
  } catch (err) {
    text = /\{[\s\S]*\}/.exec(err instanceof Error ? err.message : String(err))?.[0] ?? '{}';
  }
  const json = JSON.parse(text) as T & { error?: ToolError };
  return json && typeof json === 'object' && 'error' in json && json.error ? { error: json.error } : { value: json };
}

export async function call<T = Record<string, any>>(tool: string, input: Record<string, unknown>): Promise<T> {
  const r = await attempt<T>(tool, input);
  if (r.error) throw new Error(`${tool} failed: ${r.error.reason}: ${r.error.message}`);
  return r.value as T;
}

/**
 * The server VS Code started may still run without the pipeline family (an earlier test switched
 * families and back): restart it until the pipeline tools are live.
 */
export async function ensurePipelineTools(): Promise<void> {
  const serverId = 'agent-ledger.agent-ledger/Agent Ledger';
  await until(
    'the pipeline tools in vscode.lm.tools',
    async () => {
      if (ledgerTools().has('pipeline_next_action')) return true;
      await Promise.race([
        vscode.commands.executeCommand('workbench.mcp.restartServer', serverId, { autoTrustChanges: true }),
        sleep(10_000),
      ]);
      await Promise.race([
        vscode.commands.executeCommand('workbench.mcp.startServer', serverId, { waitForLiveTools: true }),
        sleep(10_000),
      ]);
      return ledgerTools().has('pipeline_next_action');
    },
    90_000,
  );
}

/** The seed's three-call handshake on a text request; resolves with the pipeline workspace. */
export async function startPipeline(request: string, effort: 'S' | 'M' | 'L'): Promise<string> {
  const init = await call('pipeline_init', { arguments: request });
  const base = { workspace: init.workspace, flags: init.flags, task_text: init.core_text };
  await call('pipeline_init_with_context', base);
  const ready = await call('pipeline_init_with_context', {
    ...base,
    user_confirmation: { effort, use_current_branch: true },
  });
  return String(ready.workspace);
}

export function next(workspace: string, extra: Record<string, unknown> = {}): Promise<Action> {
  return call<Action>('pipeline_next_action', { workspace, ...extra });
}

/** What the scripted agent writes: reviews with verdicts and findings, a task list, plain artifacts. */
export type Script = Record<string, (run: number) => string>;

export const design = (run: number): string =>
  `# Design (run ${run})\n\nRetry idempotent requests up to 3 times with exponential backoff.\n`;
export const reviewWithNotes = (run: number): string =>
  `# Design review (run ${run})\n\n**1. [MAJOR] Say which status codes are retried**\n**2. [MINOR] Name the config option**\n\n## Verdict: APPROVE_WITH_NOTES\n`;

/** Runs of each artifact across calls: a revised artifact must differ from the last one (the engine checks). */
const runs = new Map<string, number>();

/**
 * Executes actions until one waits for a person (checkpoint, human gate) or the pipeline is done;
 * resolves with that action. Each artifact's text comes from `script` (by file name) or a default.
 */
export async function runUntilWait(
  workspace: string,
  first: Action,
  script: Script = {},
  maxSteps = 40,
): Promise<Action> {
  let action = first;
  for (let step = 0; step < maxSteps; step++) {
    if (action.type === 'checkpoint' || action.type === 'human_gate' || action.type === 'done') return action;
    if (action.type === 'spawn_agent') {
      for (const id of (action.parallel_task_ids as string[] | null) ?? [null]) {
        const name = id ? String(action.output_file).replace('{task_id}', id) : String(action.output_file);
        const run = (runs.get(name) ?? 0) + 1;
        runs.set(name, run);
        writeFileSync(path.join(folder(), workspace, name), (script[name] ?? defaultArtifact(name))(run));
      }
    } else if (action.type === 'write_file') {
      writeFileSync(path.join(folder(), String(action.path)), String(action.content));
    }
    // exec: `gh pr create` is not run here; the scripted agent reports it done.
    action = await next(workspace, {
      previous_action_complete: true,
      previous_tokens: 1200 + step * 100,
      previous_duration_ms: 1500 + step * 250,
      previous_model: String(action.model ?? 'none'),
    });
  }
  throw new Error(`no checkpoint within ${maxSteps} actions (last: ${action.type} ${action.display_message})`);
}

function defaultArtifact(name: string): (run: number) => string {
  if (/^review-\d+\.md$/.test(name))
    return (run) => `# Code review (run ${run})\n\n- [INFO] Looks good\n\nVerdict: PASS\n`;
  if (/^review-.*\.md$/.test(name))
    return (run) => `# Review (run ${run})\n\n**1. [MINOR] Fine as it is**\n\n## Verdict: APPROVE\n`;
  return (run) => `# ${name} (run ${run})\n\nWritten by the scripted agent.\n`;
}
