import type { Effort, FlowTemplate, TemplateName } from './flowTemplate';
import { templateForEffort } from './flowTemplate';
import type { Finding, Verdict } from './verdict';

/**
 * The state of one pipeline, exactly as `<workspace>/.specs/<name>/state.json` holds it.
 * The file is the truth (human-readable, resumable, committed with the specs if the team
 * wants); the store only indexes it. Field names are snake_case like the seed's payloads.
 */
export const stateSchemaId = 'agent-ledger/pipeline-state@1';

export const sourceTypes = ['github_issue', 'jira_issue', 'text', 'workspace'] as const;
export type SourceType = (typeof sourceTypes)[number];

export type PipelineStatus = 'running' | 'awaiting_human' | 'completed' | 'abandoned';
export type PhaseStatus = 'pending' | 'in_progress' | 'completed' | 'skipped';
export type TaskMode = 'sequential' | 'parallel' | 'human';
/** pending → implemented → passed; FAIL sends it to revise; a human gate may skip it. */
export type TaskStatus = 'pending' | 'implemented' | 'revise' | 'passed' | 'accepted' | 'failed' | 'skipped';

export type PipelineFlags = {
  auto: boolean;
  skip_pr: boolean;
  debug: boolean;
  discuss: boolean;
  effort_override: Effort | null;
  current_branch: string | null;
};

export interface PhaseMetrics {
  tokens: number;
  duration_ms: number;
  /** The model of the last run (seed: `previous_model`). */
  model: string | null;
  /** How many reported runs the totals add up. */
  runs: number;
}

export interface PhaseRecord {
  status: PhaseStatus;
  started_at: string | null;
  completed_at: string | null;
  metrics: PhaseMetrics;
  verdict: Verdict | null;
  findings: Finding[];
  /** Times this phase was sent back and re-run. */
  revision: number;
  /** Why the current run is a revision: the review phase or checkpoint that sent it back. */
  revised_by: string | null;
}

export interface PipelineTask {
  id: string;
  title: string;
  mode: TaskMode;
  /** Declared scope (the `files:` line), passed to the ledger task as its areas. */
  files: string[];
  body: string;
  status: TaskStatus;
  /** Implementation runs so far. */
  attempts: number;
  verdict: Verdict | null;
  findings: Finding[];
  /** The ledger task (`task-12`) that records this task's snapshot and exact files changed. */
  ledger_task_id: string | null;
  ledger_completed: boolean;
  files_changed: number | null;
}

/** The last action handed to the orchestrator, so a report knows what to check. */
export interface PendingAction {
  type: 'spawn_agent' | 'exec' | 'write_file';
  phase: string;
  task_ids: string[];
  /** Artifacts the action must write (names inside the pipeline folder). */
  outputs: string[];
  /** Content hash of each output when the action was issued (null: absent), to detect "not rewritten". */
  fingerprints: Record<string, string | null>;
  setup_only: boolean;
  issued_at: string;
}

/** A checkpoint or human gate waiting for a person. */
export interface WaitingDecision {
  kind: 'checkpoint' | 'human_gate';
  name: string;
  phase: string;
  options: string[];
  task_id: string | null;
  requested_at: string;
}

export interface DecisionRecord {
  name: string;
  phase: string;
  kind: 'checkpoint' | 'human_gate';
  decision: string;
  comment: string | null;
  decided_by: string;
  /** 'cli', 'editor', 'agent' (only when the server allows it) or 'auto' (the --auto flag, when allowed). */
  via: string;
  decided_at: string;
}

export interface LogEntry {
  at: string;
  event: string;
  phase: string;
  detail?: string;
}

export interface PipelineState {
  schema: typeof stateSchemaId;
  /** `.specs/<yyyymmdd>-<slug>`, relative to the repository root. */
  workspace: string;
  spec_name: string;
  title: string;
  source: { type: SourceType; url: string | null; id: string | null; core_text: string };
  effort: Effort;
  flow_template: TemplateName;
  /** The flow file this pipeline runs (default resource or repository override). */
  flow_source: string;
  skipped_phases: string[];
  flags: PipelineFlags;
  branch: string | null;
  create_branch: boolean;
  branch_created: boolean;
  status: PipelineStatus;
  /** A phase id of the flow, 'setup' (branch creation) or 'completed'. */
  current_phase: string;
  phases: Record<string, PhaseRecord>;
  /** REVISE rounds per review phase (and per checkpoint rejection), bounded by max_revisions for reviews. */
  revisions: Record<string, number>;
  tasks: PipelineTask[];
  pending: PendingAction | null;
  waiting: WaitingDecision | null;
  /** Set when a revision loop hit its limit: a human decides whether to accept or abandon. */
  escalation: { phase: string; reason: string; task_ids: string[] } | null;
  decisions: DecisionRecord[];
  workflow_id: string | null;
  /** Bumped on every write; a write that started from an older rev is refused. */
  rev: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  log: LogEntry[];
}

export const SETUP_PHASE = 'setup';
export const COMPLETED_PHASE = 'completed';
const MAX_LOG = 300;

export function emptyPhase(status: PhaseStatus = 'pending'): PhaseRecord {
  return {
    status,
    started_at: null,
    completed_at: null,
    metrics: { tokens: 0, duration_ms: 0, model: null, runs: 0 },
    verdict: null,
    findings: [],
    revision: 0,
    revised_by: null,
  };
}

export interface NewStateInput {
  workspace: string;
  specName: string;
  title: string;
  source: PipelineState['source'];
  effort: Effort;
  flags: PipelineFlags;
  branch: string | null;
  createBranch: boolean;
  workflowId: string | null;
  now: string;
}

/** The state a confirmed pipeline starts from. */
export function initialState(flow: FlowTemplate, input: NewStateInput): PipelineState {
  const template = templateForEffort(input.effort);
  const skipped = new Set(flow.templates[template].skip);
  for (const p of flow.phases) if (p.skip_flag && input.flags[p.skip_flag]) skipped.add(p.id);
  const skippedPhases = flow.phases.map((p) => p.id).filter((id) => skipped.has(id));
  const phases: Record<string, PhaseRecord> = {};
  if (input.createBranch) phases[SETUP_PHASE] = emptyPhase();
  for (const p of flow.phases) phases[p.id] = emptyPhase(skipped.has(p.id) ? 'skipped' : 'pending');
  const first = input.createBranch ? SETUP_PHASE : (flow.phases.find((p) => !skipped.has(p.id))?.id ?? COMPLETED_PHASE);
  return {
    schema: stateSchemaId,
    workspace: input.workspace,
    spec_name: input.specName,
    title: input.title,
    source: input.source,
    effort: input.effort,
    flow_template: template,
    flow_source: flow.source,
    skipped_phases: skippedPhases,
    flags: input.flags,
    branch: input.branch,
    create_branch: input.createBranch,
    branch_created: false,
    status: first === COMPLETED_PHASE ? 'completed' : 'running',
    current_phase: first,
    phases,
    revisions: {},
    tasks: [],
    pending: null,
    waiting: null,
    escalation: null,
    decisions: [],
    workflow_id: input.workflowId,
    rev: 1,
    created_at: input.now,
    updated_at: input.now,
    completed_at: first === COMPLETED_PHASE ? input.now : null,
    log: [{ at: input.now, event: 'initialized', phase: first, detail: `effort ${input.effort} (${template})` }],
  };
}

/** A deep copy to mutate: transitions never change the state they were given. */
export function cloneState(state: PipelineState): PipelineState {
  return structuredClone(state);
}

export function addLog(state: PipelineState, entry: LogEntry): void {
  state.log.push(entry);
  if (state.log.length > MAX_LOG) state.log.splice(0, state.log.length - MAX_LOG);
}

export function isFinal(state: PipelineState): boolean {
  return state.status === 'completed' || state.status === 'abandoned';
}

export function totals(state: PipelineState): { tokens: number; duration_ms: number } {
  let tokens = 0;
  let duration = 0;
  for (const p of Object.values(state.phases)) {
    tokens += p.metrics.tokens;
    duration += p.metrics.duration_ms;
  }
  return { tokens, duration_ms: duration };
}
