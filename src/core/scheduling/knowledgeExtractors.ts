import { goalKey } from './knowledgeGraph';
import type { KgTripleInput, Provenance } from './knowledgeGraph';

/**
 * Triples from what the ledger already knows, in the plan vocabulary `kg_suggest_plan` reads
 * (planFragments.ts). The inputs are plain objects shaped like the ledger's model (a Task, a
 * Workflow, a pipeline's state.json, a Memory Bank entry carry these fields), so no service is
 * needed. Re-running an extractor on the same facts yields the same triples, and inserting them
 * again changes nothing.
 */

/** The fields of a ledger task the extractor reads (a `Task` of core/model.ts has them). */
export interface TaskFacts {
  id: number;
  title: string;
  status: string;
  result?: string | null;
  parentId?: number | null;
  assignee?: string | null;
  areas?: readonly string[];
  durationSeconds?: number | null;
}

/** A finished workflow, its tasks and the depends_on edges of its plan graph. */
export interface WorkflowFacts {
  workflow: { id: number; name: string };
  tasks: readonly TaskFacts[];
  /** `taskId` waited for `dependsOn`. */
  dependencies?: readonly { taskId: number; dependsOn: number }[];
}

/** How much a finished task says "this worked": done with success 1, partly 0.6, no verdict 0.8. */
export function taskConfidence(task: TaskFacts): number | null {
  if (task.status !== 'done') return null;
  if (task.result === 'partial_success') return 0.6;
  if (task.result === 'failed') return null;
  return task.result === 'success' ? 1 : 0.8;
}

/**
 * A workflow as a plan: the goal (`goalKey(name)`, or `wf-<id>` when the name has no letters or
 * digits) `includes` every task that finished well (`task-<id>`), each with its label,
 * duration, areas, assignee and parent, and the dependencies between those tasks. Failed or
 * cancelled tasks, and edges touching them, are left out: the plan is what worked.
 */
export function workflowTriples(facts: WorkflowFacts): KgTripleInput[] {
  const goal = goalKey(facts.workflow.name) || `wf-${facts.workflow.id}`;
  const provenance: Provenance[] = [{ sourceId: `wf-${facts.workflow.id}`, type: 'db' }];
  const source = 'workflow';
  const kept = new Map<number, { task: TaskFacts; confidence: number }>();
  for (const task of [...facts.tasks].sort((a, b) => a.id - b.id)) {
    const confidence = taskConfidence(task);
    if (confidence !== null) kept.set(task.id, { task, confidence });
  }
  if (kept.size === 0) return [];
  const out: KgTripleInput[] = [goalLabel(goal, facts.workflow.name, provenance)];
  for (const { task, confidence } of kept.values()) {
    out.push({ subject: goal, predicate: 'includes', object: taskId(task.id), source, confidence, provenance });
  }
  for (const { task } of kept.values()) {
    const subject = `task:${taskId(task.id)}`;
    const fact = (predicate: string, object: string) => out.push({ subject, predicate, object, source, provenance });
    if (task.title.trim()) fact('label', task.title.trim());
    if (typeof task.durationSeconds === 'number' && Number.isFinite(task.durationSeconds)) fact('duration', String(task.durationSeconds));
    for (const area of [...new Set(task.areas ?? [])].filter((a) => a.trim())) fact('area', area.trim());
    if (task.assignee?.trim()) fact('assignee', task.assignee.trim());
    if (task.parentId != null && kept.has(task.parentId)) fact('part_of', taskId(task.parentId));
  }
  const edges = [...(facts.dependencies ?? [])]
    .filter((d) => kept.has(d.taskId) && kept.has(d.dependsOn) && d.taskId !== d.dependsOn)
    .sort((a, b) => a.taskId - b.taskId || a.dependsOn - b.dependsOn);
  for (const d of edges) out.push({ subject: `task:${taskId(d.taskId)}`, predicate: 'depends_on', object: taskId(d.dependsOn), source, provenance });
  return out;
}

/** Is every task of a workflow finished (done, failed or cancelled) and at least one done? */
export function isWorkflowFinished(tasks: readonly TaskFacts[]): boolean {
  return tasks.length > 0 && tasks.every((t) => ['done', 'failed', 'cancelled'].includes(t.status)) && tasks.some((t) => t.status === 'done');
}

/** The fields of a pipeline's state.json the extractor reads. */
export interface PipelineFacts {
  spec_name: string;
  title: string;
  status: string;
  /** `.specs/<name>` folder, for provenance. */
  workspace?: string;
  /** In flow order (state.json keeps them so). */
  phases: Readonly<Record<string, { status: string; metrics?: { duration_ms?: number } }>>;
  /** Phase labels from the flow template, when known. */
  phaseLabels?: Readonly<Record<string, string>>;
}

/**
 * A completed pipeline as a plan: its title's goal `includes` each completed phase
 * (`<spec_name>/<phase>`), each depending on the completed phase before it, with its label and
 * duration in seconds. Branch setup and skipped phases are left out.
 */
export function pipelineTriples(facts: PipelineFacts): KgTripleInput[] {
  if (facts.status !== 'completed') return [];
  const goal = goalKey(facts.title) || goalKey(facts.spec_name);
  if (!goal) return [];
  const provenance: Provenance[] = [facts.workspace ? { sourceId: facts.workspace, type: 'file' } : { sourceId: `pipeline:${facts.spec_name}`, type: 'db' }];
  const source = 'pipeline';
  const phases = Object.entries(facts.phases).filter(([id, p]) => id !== 'setup' && p.status === 'completed');
  if (phases.length === 0) return [];
  const out: KgTripleInput[] = [goalLabel(goal, facts.title, provenance)];
  let previous: string | null = null;
  for (const [phase, record] of phases) {
    const id = `${facts.spec_name}/${phase}`;
    out.push({ subject: goal, predicate: 'includes', object: id, source, confidence: 1, provenance });
    out.push({ subject: `task:${id}`, predicate: 'label', object: facts.phaseLabels?.[phase] ?? phase, source, provenance });
    const ms = record.metrics?.duration_ms;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) out.push({ subject: `task:${id}`, predicate: 'duration', object: String(Math.round(ms / 1000)), source, provenance });
    if (previous) out.push({ subject: `task:${id}`, predicate: 'depends_on', object: previous, source, provenance });
    previous = id;
  }
  return out;
}

/** The fields of a Memory Bank entry the extractor reads (a `MemoryEntry` has them). */
export interface MemoryFacts {
  id: string;
  category: string;
  title: string;
  summary: string | null;
  status: string;
  file: string;
}

/**
 * Active Memory Bank entries as facts agents can query: `memory:<category>/<id>` has a
 * `label`, a `category` and a `summary`. Drafts and archived entries are left out.
 */
export function memoryTriples(entries: readonly MemoryFacts[]): KgTripleInput[] {
  const out: KgTripleInput[] = [];
  for (const e of [...entries].filter((x) => x.status === 'active').sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const subject = `memory:${e.category}/${e.id}`;
    const provenance: Provenance[] = [{ sourceId: e.file, type: 'file' }];
    const fact = (predicate: string, object: string) => out.push({ subject, predicate, object, source: 'memory', provenance });
    fact('label', e.title.trim() || e.id);
    fact('category', e.category);
    if (e.summary?.trim()) fact('summary', e.summary.trim());
  }
  return out;
}

/**
 * The goal's label. A workflow and a pipeline of the same name share it, so it carries no source
 * (an insert replaces the source, and two extractors would take turns rewriting it).
 */
function goalLabel(goal: string, name: string, provenance: Provenance[]): KgTripleInput {
  return { subject: goal, predicate: 'label', object: name.trim() || goal, provenance };
}

function taskId(id: number): string {
  return `task-${id}`;
}
