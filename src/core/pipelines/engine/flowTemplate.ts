import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { LedgerError } from '../../errors';

/** Effort levels of seed 003 and the flow template each selects. */
export const efforts = ['S', 'M', 'L'] as const;
export type Effort = (typeof efforts)[number];
export const templateNames = ['light', 'standard', 'full'] as const;
export type TemplateName = (typeof templateNames)[number];

export const phaseKinds = ['agent', 'tasks', 'review', 'checkpoint', 'implementation', 'code_review', 'exec', 'summary'] as const;
export type PhaseKind = (typeof phaseKinds)[number];

/** Flags that can skip a phase on their own (e.g. `--nopr` skips PR creation). */
export const skipFlags = ['skip_pr'] as const;

/** An artifact name inside the pipeline folder: no folders, no `..`; `{task_id}` allowed. */
const artifactName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(\{task_id\}[A-Za-z0-9._-]*)?$/, 'an artifact is a plain file name inside the pipeline folder (letters, digits, ".", "_", "-", optionally {task_id})')
  .refine((s) => !s.includes('..'), 'an artifact name must not contain ".."');

const phaseSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'phase ids are lower-case words joined by "-"'),
  label: z.string().min(1),
  kind: z.enum(phaseKinds),
  agent: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/)
    .optional(),
  model: z.string().min(1).optional(),
  inputs: z.array(artifactName).default([]),
  output: artifactName.optional(),
  revises: z.string().optional(),
  present: z.array(artifactName).default([]),
  command: z.array(z.string().min(1)).min(1).optional(),
  skip_flag: z.enum(skipFlags).optional(),
});

const flowSchema = z.strictObject({
  version: z.literal(1),
  default_model: z.string().min(1).default('sonnet'),
  max_revisions: z.number().int().min(0).max(10).default(2),
  templates: z.strictObject({
    light: z.strictObject({ effort: z.literal('S'), skip: z.array(z.string()).default([]) }),
    standard: z.strictObject({ effort: z.literal('M'), skip: z.array(z.string()).default([]) }),
    full: z.strictObject({ effort: z.literal('L'), skip: z.array(z.string()).default([]) }),
  }),
  phases: z.array(phaseSchema).min(1),
});

export type PhaseDef = z.infer<typeof phaseSchema>;
export type FlowTemplate = z.infer<typeof flowSchema> & {
  /** Where the flow came from (the default resource or a repository override). */
  source: string;
};

/** Kinds that spawn an agent, so they need `agent`; and the ones that must write `output`. */
const needsAgent: ReadonlySet<PhaseKind> = new Set(['agent', 'tasks', 'review', 'implementation', 'code_review']);
const needsOutput: ReadonlySet<PhaseKind> = new Set(['agent', 'tasks', 'review', 'implementation', 'code_review', 'summary']);

/**
 * Parses and checks a flow file. Everything the state machine relies on is checked here
 * (known `revises` targets that come earlier, skip lists naming real phases, per-task
 * artifacts only on per-task phases), so a bad override fails at load with the reason,
 * never in the middle of a pipeline.
 */
export function parseFlow(text: string, source: string): FlowTemplate {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new LedgerError('ConfigError', `${source} is not valid YAML: ${(err as Error).message}`, { source });
  }
  const parsed = flowSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    throw new LedgerError('ConfigError', `${source} is not a valid pipeline flow: ${issues}`, { source });
  }
  const flow: FlowTemplate = { ...parsed.data, source };
  checkFlow(flow);
  return flow;
}

function checkFlow(flow: FlowTemplate): void {
  const fail = (message: string): never => {
    throw new LedgerError('ConfigError', `${flow.source}: ${message}`, { source: flow.source });
  };
  const index = new Map<string, number>();
  flow.phases.forEach((p, i) => {
    if (index.has(p.id) || p.id === 'setup' || p.id === 'completed') fail(`phase id "${p.id}" is used twice or reserved`);
    index.set(p.id, i);
  });
  for (const [i, p] of flow.phases.entries()) {
    if (needsAgent.has(p.kind) && !p.agent) fail(`phase ${p.id} (${p.kind}) needs an "agent"`);
    if (needsOutput.has(p.kind) && !p.output) fail(`phase ${p.id} (${p.kind}) needs an "output"`);
    if (p.kind === 'exec' && !p.command) fail(`phase ${p.id} (exec) needs a "command" argument array`);
    const perTask = p.kind === 'implementation' || p.kind === 'code_review';
    if (!perTask && [p.output ?? '', ...p.inputs].some((a) => a.includes('{task_id}'))) fail(`phase ${p.id}: {task_id} is only meaningful in implementation and code_review phases`);
    if (p.kind === 'review' || p.kind === 'checkpoint' || p.kind === 'code_review') {
      if (!p.revises) fail(`phase ${p.id} (${p.kind}) needs "revises": the phase a rejection sends the pipeline back to`);
      const target = index.get(p.revises ?? '');
      if (target === undefined || target >= i) fail(`phase ${p.id}: revises "${p.revises}" must name an earlier phase`);
      if (p.kind === 'code_review' && flow.phases[target ?? 0].kind !== 'implementation') fail(`phase ${p.id}: a code_review revises an implementation phase`);
    }
  }
  if (flow.phases.filter((p) => p.kind === 'implementation').length > 1) fail('a flow has at most one implementation phase');
  if (flow.phases.filter((p) => p.kind === 'code_review').length > 1) fail('a flow has at most one code_review phase');
  for (const name of templateNames) {
    for (const id of flow.templates[name].skip) if (!index.has(id)) fail(`template ${name} skips unknown phase "${id}"`);
  }
}

export function templateForEffort(effort: Effort): TemplateName {
  return effort === 'S' ? 'light' : effort === 'M' ? 'standard' : 'full';
}

export function phaseDef(flow: FlowTemplate, id: string): PhaseDef | undefined {
  return flow.phases.find((p) => p.id === id);
}

/** The phase that writes `artifact` (by name, `{task_id}` kept as is), if any. */
export function producerOf(flow: FlowTemplate, artifact: string): PhaseDef | undefined {
  return flow.phases.find((p) => p.output === artifact);
}

/** Skipped phases of an effort, with labels, as `needs_user_confirmation.effort_options` shows them. */
export function skippedWithLabels(flow: FlowTemplate, effort: Effort): { phase_id: string; label: string }[] {
  return flow.templates[templateForEffort(effort)].skip.map((id) => ({ phase_id: id, label: phaseDef(flow, id)?.label ?? id }));
}

/** Replaces `{task_id}` in an artifact name. */
export function forTask(name: string, taskId: string): string {
  return name.replace('{task_id}', taskId);
}
