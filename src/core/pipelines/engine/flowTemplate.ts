/**
 * The pipeline flow: its names (efforts, templates, phase kinds), its types and the small lookups
 * the engine makes in a parsed flow. Parsing a flow file (YAML, checked by zod schemas) is
 * flowParse.ts, evaluated only where a flow is read: the `pipeline` commands load this file
 * to build their options, and neither a YAML parser nor a schema is needed for that.
 */

/** Effort levels of the pipeline contract and the flow template each selects. */
export const efforts = ['S', 'M', 'L'] as const;
export type Effort = (typeof efforts)[number];
export const templateNames = ['light', 'standard', 'full'] as const;
export type TemplateName = (typeof templateNames)[number];

export const phaseKinds = [
  'agent',
  'tasks',
  'review',
  'checkpoint',
  'implementation',
  'code_review',
  'exec',
  'summary',
] as const;
export type PhaseKind = (typeof phaseKinds)[number];

/** Flags that can skip a phase on their own (e.g. `--nopr` skips PR creation). */
export const skipFlags = ['skip_pr'] as const;

/** One phase of a flow, as flowParse.ts's schema checks it (defaults applied). */
export interface PhaseDef {
  id: string;
  label: string;
  kind: PhaseKind;
  agent?: string | undefined;
  model?: string | undefined;
  inputs: string[];
  output?: string | undefined;
  revises?: string | undefined;
  present: string[];
  command?: string[] | undefined;
  skip_flag?: (typeof skipFlags)[number] | undefined;
}

interface TemplateSkips<E extends Effort> {
  effort: E;
  skip: string[];
}

export interface FlowTemplate {
  version: 1;
  default_model: string;
  max_revisions: number;
  templates: { light: TemplateSkips<'S'>; standard: TemplateSkips<'M'>; full: TemplateSkips<'L'> };
  phases: PhaseDef[];
  /** Where the flow came from (the default resource or a repository override). */
  source: string;
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
  return flow.templates[templateForEffort(effort)].skip.map((id) => ({
    phase_id: id,
    label: phaseDef(flow, id)?.label ?? id,
  }));
}

/** Replaces `{task_id}` in an artifact name. */
export function forTask(name: string, taskId: string): string {
  return name.replace('{task_id}', taskId);
}
