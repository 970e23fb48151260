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
    if (typeof task.durationSeconds === 'number' && Number.isFinite(task.durationSeconds))
      fact('duration', String(task.durationSeconds));
    for (const area of [...new Set(task.areas ?? [])].filter((a) => a.trim())) fact('area', area.trim());
    if (task.assignee?.trim()) fact('assignee', task.assignee.trim());
    if (task.parentId != null && kept.has(task.parentId)) fact('part_of', taskId(task.parentId));
  }
  const edges = [...(facts.dependencies ?? [])]
    .filter((d) => kept.has(d.taskId) && kept.has(d.dependsOn) && d.taskId !== d.dependsOn)
    .sort((a, b) => a.taskId - b.taskId || a.dependsOn - b.dependsOn);
  for (const d of edges)
    out.push({
      subject: `task:${taskId(d.taskId)}`,
      predicate: 'depends_on',
      object: taskId(d.dependsOn),
      source,
      provenance,
    });
  return out;
}

/** Is every task of a workflow finished (done, failed or cancelled) and at least one done? */
export function isWorkflowFinished(tasks: readonly TaskFacts[]): boolean {
  return (
    tasks.length > 0 &&
    tasks.every((t) => ['done', 'failed', 'cancelled'].includes(t.status)) &&
    tasks.some((t) => t.status === 'done')
  );
}

/** The fields of a pipeline's state.json the extractor reads (a `PipelineState` has them). */
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
  /** The task list (tasks.md) the implementation phase ran, when there is one. */
  tasks?: readonly PipelineTaskFacts[];
  /** The phase that ran the tasks (the flow's `implementation` phase), when known. */
  implementationPhase?: string | null;
}

/** A task of a pipeline's task list (a `PipelineTask` of state.json has these fields). */
export interface PipelineTaskFacts {
  id: string;
  title: string;
  mode: string;
  status: string;
  files?: readonly string[];
  /** The ledger task that recorded its run (`task-12`). */
  ledger_task_id?: string | null;
}

/** How much a pipeline task's end says "this worked": passed its review 1, accepted by a person 0.8. */
const pipelineTaskConfidence: Readonly<Record<string, number>> = { passed: 1, accepted: 0.8 };

/**
 * A completed pipeline as a plan: its title's goal `includes` each completed phase
 * (`<spec_name>/<phase>`, each depending on the completed phase before it, with its label and
 * duration in seconds) and each task of its task list that passed (`<spec_name>/task-<id>`,
 * `part_of` the phase that ran it, depending on the phase before that one and, when sequential,
 * on the previous task; the phase that ran them depends on each). A task names the ledger task
 * that recorded its run (`ledger_task`). Branch setup and skipped phases are left out.
 */
export function pipelineTriples(facts: PipelineFacts): KgTripleInput[] {
  if (facts.status !== 'completed') return [];
  const goal = goalKey(facts.title) || goalKey(facts.spec_name);
  if (!goal) return [];
  const provenance: Provenance[] = [
    facts.workspace
      ? { sourceId: facts.workspace, type: 'file' }
      : { sourceId: `pipeline:${facts.spec_name}`, type: 'db' },
  ];
  const source = 'pipeline';
  const phases = Object.entries(facts.phases).filter(([id, p]) => id !== 'setup' && p.status === 'completed');
  if (phases.length === 0) return [];
  const out: KgTripleInput[] = [goalLabel(goal, facts.title, provenance)];
  const fact = (subject: string, predicate: string, object: string) =>
    out.push({ subject: `task:${subject}`, predicate, object, source, provenance });
  const phaseId = (phase: string) => `${facts.spec_name}/${phase}`;
  let previous: string | null = null;
  const before = new Map<string, string | null>();
  for (const [phase, record] of phases) {
    const id = phaseId(phase);
    before.set(phase, previous);
    out.push({ subject: goal, predicate: 'includes', object: id, source, confidence: 1, provenance });
    fact(id, 'label', facts.phaseLabels?.[phase] ?? phase);
    const ms = record.metrics?.duration_ms;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) fact(id, 'duration', String(Math.round(ms / 1000)));
    if (previous) fact(id, 'depends_on', previous);
    previous = id;
  }
  const holder = facts.implementationPhase && before.has(facts.implementationPhase) ? facts.implementationPhase : null;
  if (holder === null) return out;
  let previousTask: string | null = null;
  for (const task of facts.tasks ?? []) {
    const confidence = pipelineTaskConfidence[task.status];
    if (confidence === undefined) continue;
    const id = `${facts.spec_name}/task-${task.id}`;
    out.push({ subject: goal, predicate: 'includes', object: id, source, confidence, provenance });
    if (task.title.trim()) fact(id, 'label', task.title.trim());
    for (const area of [...new Set(task.files ?? [])].filter((a) => a.trim())) fact(id, 'area', area.trim());
    if (task.ledger_task_id?.trim()) fact(id, 'ledger_task', task.ledger_task_id.trim());
    fact(id, 'part_of', phaseId(holder));
    const upstream = before.get(holder);
    if (upstream) fact(id, 'depends_on', upstream);
    if (task.mode === 'sequential' && previousTask) fact(id, 'depends_on', previousTask);
    fact(phaseId(holder), 'depends_on', id);
    if (task.mode === 'sequential') previousTask = id;
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
  /** The Markdown body, where the tasks and goals an entry is about are named. */
  content?: string;
}

/** What the ledger knows that a Memory Bank entry may name: its tasks and the goals of its plans. */
export interface MemoryLinkTargets {
  /** Does this ledger task exist? */
  hasTask(id: number): boolean;
  /** Goals (the subjects that `include` tasks) and their labels, e.g. `add-oauth-login` → `Add OAuth login`. */
  goals: ReadonlyMap<string, string>;
}

/** `task-12`, `task 12`, `task #12`, `task_12` (any case) in a Memory Bank entry. */
const taskMention = /\btask[\s_#-]{0,2}#?([1-9][0-9]{0,14})\b/gi;

/** Ledger task ids an entry's title, summary and body name, in order. */
export function mentionedTaskIds(entry: Pick<MemoryFacts, 'title' | 'summary' | 'content'>): number[] {
  const text = [entry.title, entry.summary ?? '', entry.content ?? ''].join('\n');
  return [...new Set([...text.matchAll(taskMention)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

/**
 * Active Memory Bank entries as facts agents can query: `memory:<category>/<id>` has a
 * `label`, a `category` and a `summary`; it `mentions` each ledger task it names (`task-12`,
 * the id plans include) and is `about` each goal whose label or key it names (so
 * `kg_query {predicate: "about", object: "add-oauth-login"}` lists the decisions and patterns
 * recorded for a plan). Drafts and archived entries are left out.
 */
export function memoryTriples(entries: readonly MemoryFacts[], targets?: MemoryLinkTargets): KgTripleInput[] {
  const out: KgTripleInput[] = [];
  for (const e of [...entries]
    .filter((x) => x.status === 'active')
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    out.push(...memoryEntryTriples(e, targets));
  }
  return out;
}

/** The triples of one entry (none when it is not active). */
export function memoryEntryTriples(e: MemoryFacts, targets?: MemoryLinkTargets): KgTripleInput[] {
  if (e.status !== 'active') return [];
  const out: KgTripleInput[] = [];
  const subject = memorySubject(e);
  const provenance: Provenance[] = [{ sourceId: e.file, type: 'file' }];
  const fact = (predicate: string, object: string) =>
    out.push({ subject, predicate, object, source: 'memory', provenance });
  fact('label', e.title.trim() || e.id);
  fact('category', e.category);
  if (e.summary?.trim()) fact('summary', e.summary.trim());
  if (!targets) return out;
  for (const id of mentionedTaskIds(e)) if (targets.hasTask(id)) fact('mentions', taskId(id));
  const text = ` ${plainWords([e.title, e.summary ?? '', e.content ?? ''].join('\n'))} `;
  for (const [goal, label] of [...targets.goals].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    // The goal's key (`add-oauth-login`) or its label (`Add OAuth login`), as whole words; too short a name says nothing.
    const named = [plainWords(goal), plainWords(label)].some(
      (words) => words.length >= 4 && text.includes(` ${words} `),
    );
    if (named) fact('about', goal);
  }
  return out;
}

/** Lower-case letters and digits, every other run of characters one space (accents dropped). */
function plainWords(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The subject of a Memory Bank entry's facts. */
export function memorySubject(e: Pick<MemoryFacts, 'category' | 'id'>): string {
  return `memory:${e.category}/${e.id}`;
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
