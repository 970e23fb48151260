import { randomUUID } from 'node:crypto';
import { codexLaunch } from '../launch/codexCli';
import type { McpServerLaunch } from '../launch/clientLaunch';
import type { StdinSpec } from '../../ports/processes';
import type { ChildCreateInput, ChildLimits, ChildSpawnCodexInput } from './childContracts';
import { effectiveLimits } from './childLimits';
import type { Correlation } from './childStore';
import { workdirOf } from './childView';
import { checkCallerEnv } from './childEnvironment';

/** What a launch needs once the tool's input is turned into a program and arguments. */
export interface Launch {
  childId: string;
  kind: 'command' | 'codex';
  program: string;
  args: string[];
  env: Record<string, string>;
  stdin: StdinSpec;
  cwd: string;
  workdir: string;
  role: string | null;
  limits: ChildLimits;
  metadata: Record<string, unknown>;
  manifestName: string;
  corr: Correlation;
}

/** Where children start: the workspace they stay in and the environment they start from. */
export interface LaunchPlace {
  /** Real path of the workspace root: every child's working folder stays inside it (or inside `worktreesDir`). */
  workspace: string;
  /** The folder of the task worktrees, when the user put it outside the workspace (`--worktrees-dir`). */
  worktreesDir?: string;
  /** The environment children start from: built, never the server's whole one (childEnvironment.ts). */
  env(): Record<string, string>;
}

const corrOf = (
  input: { run_id?: string; job_id?: string; graph_id?: string; node_id?: string },
  opId: string,
): Correlation => ({
  run_id: input.run_id ?? null,
  op_id: opId,
  job_id: input.job_id ?? null,
  graph_id: input.graph_id ?? null,
  node_id: input.node_id ?? null,
});

/** `child_create`: a program with its arguments, never through a shell; its input a pipe. */
export function commandLaunch(input: ChildCreateInput, opId: string, place: LaunchPlace): Launch {
  checkCallerEnv(input.env);
  const { cwd, workdir } = workdirOf(place.workspace, input.cwd, place.worktreesDir);
  return {
    childId: input.child_id ?? `child-${randomUUID()}`,
    kind: 'command',
    program: input.command,
    args: input.args,
    env: { ...place.env(), ...input.env },
    stdin: { kind: 'pipe' },
    cwd,
    workdir,
    role: input.role ?? null,
    limits: effectiveLimits(input.limits),
    metadata: input.metadata ?? {},
    manifestName: 'manifest.json',
    corr: corrOf(input, opId),
  };
}

/** `child_spawn_codex`: `codex exec` with its real non-interactive flags, the prompt one argument after `--`. */
export function codexChildLaunch(
  input: ChildSpawnCodexInput,
  opId: string,
  place: LaunchPlace & { configDir: string; ledgerServer?: McpServerLaunch },
): Launch {
  const { cwd, workdir } = workdirOf(place.workspace, input.cwd, place.worktreesDir);
  const role = input.role ?? null;
  const plan = codexLaunch({
    prompt: input.prompt,
    cwd,
    configDir: place.configDir,
    model: input.model_hint,
    access: input.sandbox === 'read-only' ? 'readOnly' : 'workspaceWrite',
    appendSystemPrompt: role ? `Your role: ${role}` : undefined,
    mcpServers: input.ledger_tools && place.ledgerServer ? [place.ledgerServer] : [],
  });
  const metadata = { ...input.metadata, ...(input.child_id_hint ? { child_id_hint: input.child_id_hint } : {}) };
  return {
    childId: input.child_id,
    kind: 'codex',
    program: plan.program,
    args: plan.args,
    env: { ...place.env(), ...plan.env },
    stdin: plan.stdin,
    cwd,
    workdir,
    role,
    limits: effectiveLimits(input.limits),
    metadata,
    manifestName: input.manifest_path,
    corr: corrOf(input, opId),
  };
}
