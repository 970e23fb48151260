import { validationError } from '../../errors';
import { compareText } from '../stigmergy/stigmergyField';
import { sortedText } from './knowledgeGraph';
import type { KnowledgeGraph } from './knowledgeGraph';
import { buildFragment, planPattern } from './planFragments';
import type { HierGraph, PlanTask } from './planFragments';

/**
 * `kg_suggest_plan`: plan fragments for a goal from what the knowledge graph knows, with the
 * coverage and rationale of the public implementation (src/knowledge/assist.ts
 * `suggestPlanFragments`): one fragment per preferred source that has tasks (in the order
 * given), then one for the other sources — or a single one for the whole plan when no source is
 * preferred — at most `max_fragments` (default 3, 1–5). Excluded tasks are left out; a kept
 * task's dependency on an excluded task is a missing dependency, on a task the plan does not
 * include an unknown one. Deterministic: the same graph and input give the same answer.
 * The rationale is written in English (the public implementation writes it in French).
 */

/** `kg_suggest_plan`'s context. */
export interface SuggestContext {
  preferred_sources?: string[];
  exclude_tasks?: string[];
  max_fragments?: number;
}

/** A task and the dependencies of it that the fragments cannot provide. */
export interface DependencyGap {
  task: string;
  dependencies: string[];
}

/** `kg_suggest_plan`'s result. */
export interface PlanSuggestion {
  goal: string;
  fragments: HierGraph[];
  rationale: string[];
  coverage: {
    total_tasks: number;
    suggested_tasks: string[];
    excluded_tasks: string[];
    missing_dependencies: DependencyGap[];
    unknown_dependencies: DependencyGap[];
  };
  sources: { source: string; tasks: number }[];
  preferred_sources_applied: string[];
  preferred_sources_ignored: string[];
}

interface Group {
  label: string;
  seeds: PlanTask[];
  preferredKey?: string;
}

/** How many fragments come back when the context does not say. */
export const defaultMaxFragments = 3;
const listLimit = 5;

/** Suggests fragments of the plan recorded for `goal` (see above). Never throws for an unknown goal. */
export function suggestPlan(kg: KnowledgeGraph, goalInput: string, context: SuggestContext = {}): PlanSuggestion {
  const goal = goalInput.trim();
  if (!goal) throw validationError('goal must not be empty');
  const preferred = preferredSources(context.preferred_sources ?? []);
  const exclude = new Set((context.exclude_tasks ?? []).map((t) => t.trim()).filter((t) => t.length > 0));
  const maxFragments = Math.min(
    5,
    Math.max(
      1,
      Math.floor(Number.isFinite(context.max_fragments) ? (context.max_fragments as number) : defaultMaxFragments),
    ),
  );
  const ignoredAll = preferred.map((p) => p.label);
  const empty = {
    total_tasks: 0,
    suggested_tasks: [],
    excluded_tasks: [],
    missing_dependencies: [],
    unknown_dependencies: [],
  };

  const pattern = planPattern(kg, goal);
  if (!pattern) {
    const line = `No known plan for '${goal}'. Record one with kg_insert (or finish a workflow) before asking for a suggestion.`;
    return {
      goal,
      fragments: [],
      rationale: [line],
      coverage: empty,
      sources: [],
      preferred_sources_applied: [],
      preferred_sources_ignored: ignoredAll,
    };
  }

  const inPlan = new Set(pattern.tasks.map((t) => t.id));
  const included = pattern.tasks.filter((t) => !exclude.has(t.id));
  const includedMap = new Map(included.map((t) => [t.id, t]));
  const excluded = sortedText(pattern.tasks.filter((t) => exclude.has(t.id)).map((t) => t.id));
  const missing = new Map<string, Set<string>>();
  const unknown = new Map<string, Set<string>>();
  for (const task of included) {
    for (const dep of task.dependsOn) {
      if (includedMap.has(dep)) continue;
      const target = inPlan.has(dep) ? missing : unknown;
      target.set(task.id, (target.get(task.id) ?? new Set()).add(dep));
    }
  }
  const coverageBase = {
    total_tasks: pattern.tasks.length,
    excluded_tasks: excluded,
    missing_dependencies: gaps(missing),
    unknown_dependencies: gaps(unknown),
  };

  if (included.length === 0) {
    const line = `The knowledge graph has ${pattern.tasks.length} task(s) for '${goal}', but the context excluded all of them.`;
    return {
      goal,
      fragments: [],
      rationale: [line],
      coverage: { ...coverageBase, suggested_tasks: [] },
      sources: [],
      preferred_sources_applied: [],
      preferred_sources_ignored: ignoredAll,
    };
  }

  const groups = groupTasks(included, preferred);
  const fragments: HierGraph[] = [];
  const lines: string[] = [];
  const suggested = new Set<string>();
  const perSource = new Map<string, { label: string; count: number }>();
  const applied = new Set<string>();
  for (const group of groups.slice(0, maxFragments)) {
    const id = `${pattern.plan}-fragment-${fragments.length + 1}`;
    const built = buildFragment(pattern.plan, id, group.label, group.seeds, includedMap);
    fragments.push(built.graph);
    for (const taskId of built.selected) {
      if (suggested.has(taskId)) continue;
      suggested.add(taskId);
      const source = sourceOf(includedMap.get(taskId)?.source ?? null);
      const counter = perSource.get(source.key) ?? { label: source.label, count: 0 };
      counter.count += 1;
      perSource.set(source.key, counter);
    }
    if (group.preferredKey) applied.add(group.preferredKey);
    const supporting = built.selected.size - built.seeds.size;
    lines.push(
      `Fragment ${fragments.length} – ${group.label}: ${built.seeds.size} task(s)${supporting > 0 ? ` and ${supporting} supporting dependenc${supporting === 1 ? 'y' : 'ies'}` : ''}.`,
    );
  }
  if (groups.length > maxFragments)
    lines.push(`${groups.length - maxFragments} more group(s) left out by max_fragments=${maxFragments}.`);

  const coverage = { ...coverageBase, suggested_tasks: sortedText(suggested) };
  const sources = [...perSource.values()]
    .map((s) => ({ source: s.label, tasks: s.count }))
    .sort((a, b) => b.tasks - a.tasks || compareText(a.source, b.source));
  const rationale = [
    `Plan '${goal}': ${coverage.suggested_tasks.length}/${pattern.tasks.length} task(s) suggested.`,
    ...lines,
  ];
  if (excluded.length > 0) rationale.push(`Excluded by the context: ${formatList(excluded)}.`);
  if (coverage.missing_dependencies.length > 0)
    rationale.push(`Dependencies left out (in the plan but excluded): ${formatGaps(coverage.missing_dependencies)}.`);
  if (coverage.unknown_dependencies.length > 0)
    rationale.push(`Dependencies unknown to the graph: ${formatGaps(coverage.unknown_dependencies)}.`);
  if (sources.every((s) => s.source === 'unknown'))
    rationale.push('No source recorded for the suggested tasks: every task has an unknown provenance.');
  return {
    goal,
    fragments,
    rationale,
    coverage,
    sources,
    preferred_sources_applied: preferred.filter((p) => applied.has(p.key)).map((p) => p.label),
    preferred_sources_ignored: preferred.filter((p) => !applied.has(p.key)).map((p) => p.label),
  };
}

function groupTasks(tasks: PlanTask[], preferred: { key: string; label: string }[]): Group[] {
  if (preferred.length === 0) return [{ label: 'full plan', seeds: tasks }];
  const groups: Group[] = [];
  for (const p of preferred) {
    const seeds = tasks.filter((t) => sourceOf(t.source).key === p.key);
    if (seeds.length > 0) groups.push({ label: `source ${p.label}`, seeds, preferredKey: p.key });
  }
  const keys = new Set(preferred.map((p) => p.key));
  const rest = tasks.filter((t) => !keys.has(sourceOf(t.source).key));
  if (rest.length > 0) groups.push({ label: 'other sources', seeds: rest });
  return groups;
}

/** Preferred sources, case-insensitive and de-duplicated, in the order given (first spelling kept). */
function preferredSources(raw: readonly string[]): { key: string; label: string }[] {
  const out: { key: string; label: string }[] = [];
  for (const r of raw) {
    const label = r.trim();
    const key = label.toLowerCase();
    if (label && !out.some((p) => p.key === key)) out.push({ key, label });
  }
  return out;
}

function sourceOf(source: string | null): { key: string; label: string } {
  const label = source?.trim() || 'unknown';
  return { key: label.toLowerCase(), label };
}

function gaps(map: Map<string, Set<string>>): DependencyGap[] {
  return [...map.entries()]
    .map(([task, deps]) => ({ task, dependencies: sortedText(deps) }))
    .sort((a, b) => compareText(a.task, b.task));
}

function formatList(values: string[]): string {
  if (values.length <= listLimit) return values.join(', ');
  return `${values.slice(0, listLimit).join(', ')} (+${values.length - listLimit} more)`;
}

function formatGaps(list: DependencyGap[]): string {
  return formatList(list.map((g) => `${g.task} -> ${g.dependencies.join(', ')}`));
}
