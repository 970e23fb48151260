import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { LedgerError } from '../../errors';
import { phaseKinds, skipFlags, templateNames } from './flowTemplate';
import type { FlowTemplate, PhaseKind } from './flowTemplate';

/**
 * Parsing and checking a pipeline flow file (flowTemplate.ts has the flow's names, types and
 * lookups). The zod schemas are built the first time a flow is parsed, not when this file is
 * evaluated: commands and tools that never read a flow build none of them.
 */

/** The flow's schemas (an artifact name inside the pipeline folder: no folders, no `..`; `{task_id}` allowed). */
function buildSchemas() {
  const artifactName = z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*(\{task_id\}[A-Za-z0-9._-]*)?$/,
      'an artifact is a plain file name inside the pipeline folder (letters, digits, ".", "_", "-", optionally {task_id})',
    )
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

  return { phaseSchema, flowSchema };
}

let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = () => (built ??= buildSchemas());

// The flow's types are written out in flowTemplate.ts (which must not load zod); the schema
// must produce exactly them.
type Parsed = z.infer<ReturnType<typeof buildSchemas>['flowSchema']>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const flowTypesMatch: Same<Parsed, Omit<FlowTemplate, 'source'>> = true;
void flowTypesMatch;

/** Kinds that spawn an agent, so they need `agent`; and the ones that must write `output`. */
const needsAgent: ReadonlySet<PhaseKind> = new Set(['agent', 'tasks', 'review', 'implementation', 'code_review']);
const needsOutput: ReadonlySet<PhaseKind> = new Set([
  'agent',
  'tasks',
  'review',
  'implementation',
  'code_review',
  'summary',
]);

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
  const parsed = schemas().flowSchema.safeParse(raw);
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
    if (index.has(p.id) || p.id === 'setup' || p.id === 'completed')
      fail(`phase id "${p.id}" is used twice or reserved`);
    index.set(p.id, i);
  });
  for (const [i, p] of flow.phases.entries()) {
    if (needsAgent.has(p.kind) && !p.agent) fail(`phase ${p.id} (${p.kind}) needs an "agent"`);
    if (needsOutput.has(p.kind) && !p.output) fail(`phase ${p.id} (${p.kind}) needs an "output"`);
    if (p.kind === 'exec' && !p.command) fail(`phase ${p.id} (exec) needs a "command" argument array`);
    const perTask = p.kind === 'implementation' || p.kind === 'code_review';
    if (!perTask && [p.output ?? '', ...p.inputs].some((a) => a.includes('{task_id}')))
      fail(`phase ${p.id}: {task_id} is only meaningful in implementation and code_review phases`);
    if (p.kind === 'review' || p.kind === 'checkpoint' || p.kind === 'code_review') {
      if (!p.revises)
        fail(`phase ${p.id} (${p.kind}) needs "revises": the phase a rejection sends the pipeline back to`);
      const target = index.get(p.revises ?? '');
      if (target === undefined || target >= i) fail(`phase ${p.id}: revises "${p.revises}" must name an earlier phase`);
      if (p.kind === 'code_review' && flow.phases[target ?? 0].kind !== 'implementation')
        fail(`phase ${p.id}: a code_review revises an implementation phase`);
    }
  }
  if (flow.phases.filter((p) => p.kind === 'implementation').length > 1)
    fail('a flow has at most one implementation phase');
  if (flow.phases.filter((p) => p.kind === 'code_review').length > 1) fail('a flow has at most one code_review phase');
  for (const name of templateNames) {
    for (const id of flow.templates[name].skip)
      if (!index.has(id)) fail(`template ${name} skips unknown phase "${id}"`);
  }
}
