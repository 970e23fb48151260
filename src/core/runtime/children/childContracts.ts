import { z } from 'zod';
import {
  correlationDescriptions,
  idempotencyKeyInput,
  idempotencyOutput,
  PAGE_LIMIT_MAX,
  waitMsInput,
} from '../../contracts/callOptions';
import { childLogEntryOutput } from '../../coordination/resources/resourceContracts';
import { childStates } from './childStates';

/**
 * Contracts of the child-runtime tools of the orchestrator family. Names, fields and result
 * shapes follow the public reference (self-codex `src/tools/childTools.ts` and the API summary of
 * the orchestrator contract: `child_create`, `child_spawn_codex`, `child_batch_create` ≤ 16 entries,
 * `child_attach`, `child_set_role`, `child_set_limits`, `child_status`, `child_send`,
 * `child_kill`); `child_list`, `child_logs` with its bounded wait, `cwd` and the strict limits
 * object are ours. Every result carries the six correlation ids (null where unknown).
 */

/** Ids are file names and `sc://children/<id>/logs` segments: letters, digits, ".", "_", "-". */
export const CHILD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** A program: a bare name looked up on PATH, or an absolute path (the supervisor checks it again). */
export const PROGRAM_PATTERN = /^(?:[A-Za-z0-9_+@][A-Za-z0-9._+@-]*|\/[^\0]*|[A-Za-z]:\\[^\0]*)$/;
/** Children started at once by `child_batch_create`. */
export const CHILD_BATCH_MAX = 16;

const childId = z
  .string()
  .regex(CHILD_ID_PATTERN, 'a child id is 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .describe('Id of the child runtime (never reused)');
const idText = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);
const role = z.string().trim().min(1).max(120);

/** Correlation ids a creator accepts (the child id is the target, named apart). */
const correlationIn = {
  run_id: idText(correlationDescriptions.run_id),
  op_id: idText(correlationDescriptions.op_id),
  job_id: idText(correlationDescriptions.job_id),
  graph_id: idText(correlationDescriptions.graph_id),
  node_id: idText(correlationDescriptions.node_id),
};
/** `run_id` / `op_id` of the fine-control tools (the orchestrator contract's `ChildAttachInput`…). */
const runOpIn = { run_id: correlationIn.run_id, op_id: correlationIn.op_id };

/** The six correlation ids on every result; `op_id` is always set (generated when not given). */
const correlationOut = {
  run_id: z.string().nullable().describe(correlationDescriptions.run_id),
  op_id: z.string().describe('Operation id of this call: the one passed in, or a generated one'),
  job_id: z.string().nullable().describe(correlationDescriptions.job_id),
  graph_id: z.string().nullable().describe(correlationDescriptions.graph_id),
  node_id: z.string().nullable().describe(correlationDescriptions.node_id),
};

export const childLimitsInput = z.strictObject({
  wallclock_ms: z
    .number()
    .int()
    .min(100)
    .max(86_400_000)
    .optional()
    .describe('Wall-clock budget from start (ms); the child is stopped when it runs out. Enforced'),
  max_output_bytes: z
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .optional()
    .describe('Budget of stdout + stderr bytes; past it nothing more is logged and the child is stopped. Enforced'),
  idle_ms: z
    .number()
    .int()
    .min(100)
    .max(86_400_000)
    .optional()
    .describe('Longest silence (no output) before the child is stopped (ms). Enforced'),
  messages: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe('Most child_send inputs; the next one is refused. Enforced'),
  cpu_percent: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('CPU ceiling written in the manifest for the child to honour; not enforced by the server'),
  memory_mb: z
    .number()
    .int()
    .min(1)
    .max(1_048_576)
    .optional()
    .describe('Memory ceiling written in the manifest for the child to honour; not enforced by the server'),
  tokens: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Token budget written in the manifest for the child to honour; not enforced by the server'),
});

/** Limits as a child runs with them: the defaults filled in. */
export const childLimitsOutput = z.strictObject({
  wallclock_ms: z.number().int().describe('Wall-clock budget (ms), enforced'),
  max_output_bytes: z.number().int().describe('Output budget (bytes), enforced'),
  idle_ms: z.number().int().nullable().describe('Longest silence (ms), enforced; null for none'),
  messages: z.number().int().nullable().describe('Most child_send inputs, enforced; null for none'),
  cpu_percent: z.number().int().nullable().describe('CPU ceiling for the child to honour (not enforced)'),
  memory_mb: z.number().int().nullable().describe('Memory ceiling for the child to honour (not enforced)'),
  tokens: z.number().int().nullable().describe('Token budget for the child to honour (not enforced)'),
});

const cwd = z
  .string()
  .min(1)
  .max(1000)
  .optional()
  .describe('Working folder, relative to the workspace root (default: the root); it must stay inside the workspace');
const metadata = z.record(z.string().max(200), z.unknown()).optional().describe('Free JSON kept in the manifest');

export const childRuntimeStatusOutput = z.strictObject({
  state: z
    .enum(childStates)
    .describe(
      'starting (recorded, its process not started yet: pid null); running (pid set); exited (ended, see exit_code/signal/limit); failed (never started); lost (its server process ended without recording the exit)',
    ),
  pid: z.number().int().nullable().describe('Process id, null when it never started'),
  started_at: z.number().int().nullable().describe('When it started (epoch ms)'),
  ended_at: z.number().int().nullable().describe('When it ended (epoch ms), null while running'),
  exit_code: z.number().int().nullable().describe('Exit code, null while running or when a signal ended it'),
  signal: z.string().nullable().describe('Signal that ended it (SIGTERM, SIGKILL…), null otherwise'),
  limit: z.enum(['wallClock', 'outputBytes', 'idle']).nullable().describe('The limit that ended it, null otherwise'),
  stopped: z.boolean().describe('True when child_kill (or a batch rollback) stopped it'),
  messages_sent: z.number().int().describe('Inputs written with child_send so far'),
  owner_pid: z
    .number()
    .int()
    .describe('Process id of the server that started it (only that one can write to its input)'),
  owner_host: z.string().describe('Host of that server'),
  error: z.string().nullable().describe('Why it failed to start, null otherwise'),
});

export const childManifestOutput = z.strictObject({
  child_id: z.string().describe('Id of the child'),
  kind: z.enum(['command', 'codex']).describe('command (child_create) or codex (child_spawn_codex)'),
  command: z.string().describe('The program started (bare name or absolute path), never a shell line'),
  args: z.array(z.string()).describe('Its arguments, each passed as is'),
  workdir: z.string().describe('Working folder, relative to the workspace root ("." for the root)'),
  role: z.string().nullable().describe('Role of the child, null when none'),
  limits: childLimitsOutput,
  metadata: z.record(z.string(), z.unknown()).describe('Free JSON given at creation'),
  created_at: z.number().int().describe('When it was created (epoch ms)'),
  attached_at: z.number().int().nullable().describe('Last child_attach (epoch ms), null when never attached'),
  run_id: z.string().nullable().describe(correlationDescriptions.run_id),
  op_id: z.string().nullable().describe('Operation id of the last call that changed the child'),
  job_id: z.string().nullable().describe(correlationDescriptions.job_id),
  graph_id: z.string().nullable().describe(correlationDescriptions.graph_id),
  node_id: z.string().nullable().describe(correlationDescriptions.node_id),
});

/** What every single-child tool returns. */
const childResult = {
  ...correlationOut,
  child_id: z.string().describe('Id of the child'),
  runtime_status: childRuntimeStatusOutput,
  manifest: childManifestOutput,
  role: z.string().nullable().describe('Role of the child'),
  limits: childLimitsOutput,
  attached_at: z.number().int().nullable().describe('Last child_attach (epoch ms)'),
  started_at: z.number().int().nullable().describe('When it started (epoch ms)'),
  workdir: z.string().describe('Working folder, relative to the workspace root'),
  manifest_path: z.string().describe('The manifest file (absolute path)'),
  log_path: z.string().describe('The log file, JSON Lines (absolute path)'),
  log_uri: z.string().describe('sc://children/<id>/logs: the log as a resource'),
};
export const childOutput = z.strictObject(childResult);

export const childCreateInput = z.strictObject({
  child_id: childId.optional().describe('Id of the child; a new one is made up when absent'),
  command: z
    .string()
    .min(1)
    .max(4096)
    .regex(
      PROGRAM_PATTERN,
      'a program is a bare name found on PATH (e.g. node) or an absolute path, never a command line',
    )
    .describe('Program to start: a bare name found on PATH or an absolute path, never a shell command line'),
  args: z
    .array(z.string().max(100_000))
    .max(256)
    .default([])
    .describe('Arguments, each passed to the program as is (no shell ever sees them)'),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string().max(100_000))
    .optional()
    .describe("Variables added to the server's environment for the child"),
  cwd,
  role: role.optional().describe('Role of the child (a label kept in the manifest)'),
  limits: childLimitsInput.optional().describe('Limits of the run; the server fills in defaults'),
  metadata,
  initial_payload: z
    .unknown()
    .optional()
    .describe('Written to the child input once started: text as is, anything else as one JSON line'),
  ...idempotencyKeyInput,
  ...correlationIn,
});
export const childCreateOutput = z.strictObject({
  ...childResult,
  sent_initial_payload: z.boolean().describe('True when initial_payload was written'),
  ...idempotencyOutput,
});

export const childSpawnCodexInput = z.strictObject({
  child_id: childId,
  prompt: z
    .string()
    .min(1)
    .max(200_000)
    .describe('Instructions for Codex (`codex exec`), passed as one argument after `--`'),
  manifest_path: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a file name')
    .default('codex.json')
    .describe("File name of the manifest in the child's folder"),
  role: role.optional().describe('Role of the child; Codex reads it in front of the prompt'),
  limits: childLimitsInput.optional().describe('Limits of the run; the server fills in defaults'),
  model_hint: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/, 'a model name')
    .optional()
    .describe('Model for Codex (`--model`)'),
  sandbox: z
    .enum(['read-only', 'workspace-write'])
    .default('workspace-write')
    .describe("Codex's sandbox: what the child may change"),
  ledger_tools: z
    .boolean()
    .default(true)
    .describe(
      "Give Codex this ledger's MCP server (tasks, blackboard, child runtimes) so it can coordinate with whoever started it",
    ),
  cwd,
  metadata,
  child_id_hint: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('A readable name for the child, kept in its metadata'),
  ...idempotencyKeyInput,
  ...correlationIn,
});
export const childSpawnCodexOutput = z.strictObject({ ...childResult, ...idempotencyOutput });

export const childBatchCreateInput = z.strictObject({
  entries: z
    .array(childSpawnCodexInput)
    .min(1)
    .max(CHILD_BATCH_MAX)
    .describe('Codex children to start, in order: all of them, or (one failing to start) none'),
});
export const childBatchCreateOutput = z.strictObject({
  ...correlationOut,
  child_id: z.null().describe('Null: a batch has no single child'),
  children: z.array(childSpawnCodexOutput).describe('The children, in input order'),
  created: z.number().int().describe('Children actually started (replays excluded)'),
  idempotent_entries: z.number().int().describe('Entries answered from an earlier call with the same key'),
});

const target = { child_id: childId.describe('The child') };

export const childAttachInput = z.strictObject({ ...target, ...runOpIn });
export const childSetRoleInput = z.strictObject({ ...target, role: role.describe('New role'), ...runOpIn });
export const childSetLimitsInput = z.strictObject({
  ...target,
  limits: childLimitsInput.describe(
    'Limits to change; the others keep their value. Wall clock, output and idle apply at once to a running child',
  ),
  ...runOpIn,
});
export const childStatusInput = z.strictObject({ ...target, op_id: correlationIn.op_id });

export const childSendInput = z.strictObject({
  ...target,
  payload: z.unknown().describe('Text is written as is (a newline added when missing); anything else as one JSON line'),
  ...runOpIn,
});
export const childSendOutput = z.strictObject({
  ...correlationOut,
  child_id: z.string().describe('The child'),
  sent_bytes: z.number().int().describe('Bytes written to its input'),
  messages_sent: z.number().int().describe('Inputs written so far'),
  messages_limit: z.number().int().nullable().describe('Most inputs allowed, null for no limit'),
});

export const childKillInput = z.strictObject({
  ...target,
  grace_ms: z
    .number()
    .int()
    .min(0)
    .max(30_000)
    .default(2000)
    .describe('Time between SIGTERM to its process group and SIGKILL'),
  ...runOpIn,
});

export const childListInput = z.strictObject({
  state: z.enum(childStates).optional().describe('Only children in this state'),
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(100).describe('Most children to return, newest first'),
  op_id: correlationIn.op_id,
});
export const childListOutput = z.strictObject({
  ...correlationOut,
  child_id: z.null().describe('Null: a list has no single child'),
  children: z.array(childOutput).describe('Children of the workspace, newest first, whichever server started them'),
});

export const childLogsInput = z.strictObject({
  ...target,
  from_seq: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Return entries after this seq (next_seq of the previous call)'),
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(200).describe('Most entries to return'),
  wait_ms: waitMsInput.describe(
    'How long to wait when there is nothing new yet and the child still runs; returns the moment a line is written. 0 returns at once',
  ),
  op_id: correlationIn.op_id,
});
export const childLogsOutput = z.strictObject({
  ...correlationOut,
  child_id: z.string().describe('The child'),
  uri: z.string().describe('sc://children/<id>/logs'),
  logs: z.array(childLogEntryOutput).describe('Entries after from_seq, oldest first'),
  next_seq: z.number().int().describe('Pass as from_seq next time'),
  state: z.enum(childStates).describe('State of the child when read'),
});

export type ChildLimitsInput = z.infer<typeof childLimitsInput>;
export type ChildLimits = z.infer<typeof childLimitsOutput>;
export type ChildOutput = z.infer<typeof childOutput>;
export type ChildCreateInput = z.infer<typeof childCreateInput>;
export type ChildSpawnCodexInput = z.infer<typeof childSpawnCodexInput>;
export type ChildSpawnCodexOutput = z.infer<typeof childSpawnCodexOutput>;
export type ChildBatchCreateInput = z.infer<typeof childBatchCreateInput>;
export type ChildRuntimeStatus = z.infer<typeof childRuntimeStatusOutput>;
export type ChildManifest = z.infer<typeof childManifestOutput>;
export type ChildState = (typeof childStates)[number];
export type ChildLogsOutput = z.infer<typeof childLogsOutput>;
export type ChildSendOutput = z.infer<typeof childSendOutput>;
