import * as path from 'node:path';
import type { FlowTemplate } from '../engine/flowTemplate';
import type { PipelineState } from '../engine/pipelineState';
import { totals } from '../engine/pipelineState';
import { SPECS_DIR } from './specsFiles';
import { readFileConfined, writeFileConfined } from '../../files/confinedPath';
import type { Severity } from '../engine/verdict';

/**
 * `.specs/index.json`: one entry per finished pipeline — what it was about, what reviewers
 * found, what slowed the agents down. The data flywheel (layer 4 of the prompt) reads it
 * instead of opening every past pipeline's folder.
 */
export interface SpecsIndexEntry {
  workspace: string;
  spec_name: string;
  title: string;
  source_type: string;
  effort: string;
  flow_template: string;
  status: string;
  created_at: string;
  completed_at: string | null;
  /** Title and request body, cut to 2,000 characters: what BM25 ranks. */
  request: string;
  findings: { phase: string; severity: Severity; description: string }[];
  /** Lines of the pipeline's improvement.md ("AI Friction Points"). */
  friction: string[];
  revisions: number;
  total_tokens: number;
  total_duration_ms: number;
}

export interface SpecsIndex {
  version: 1;
  updated_at: string;
  pipelines: SpecsIndexEntry[];
}

const MAX_ENTRIES = 5000;

export function specsIndexPath(root: string): string {
  return path.join(root, SPECS_DIR, 'index.json');
}

/** The index, or an empty one when absent or unreadable (the flywheel is a bonus, never a blocker). */
export function readSpecsIndex(root: string): SpecsIndex {
  try {
    // Confined: an index linked outside reads as absent (the flywheel is a bonus).
    const parsed = JSON.parse(readFileConfined(root, specsIndexPath(root))) as SpecsIndex;
    if (parsed && Array.isArray(parsed.pipelines)) return parsed;
  } catch {
    /* absent or broken: start over */
  }
  return { version: 1, updated_at: '', pipelines: [] };
}

/** Adds or replaces one pipeline's entry. Callers hold the store's write lock, so processes take turns. */
export function upsertSpecsIndex(root: string, entry: SpecsIndexEntry, now: string): void {
  const index = readSpecsIndex(root);
  const others = index.pipelines.filter((p) => p.workspace !== entry.workspace);
  const pipelines = [...others, entry].slice(-MAX_ENTRIES);
  writeFileConfined(
    root,
    specsIndexPath(root),
    `${JSON.stringify({ version: 1, updated_at: now, pipelines }, null, 1)}\n`,
  );
}

/** The index entry of a finished pipeline; `request` and `improvement` are the texts of request.md and improvement.md. */
export function indexEntry(
  state: PipelineState,
  flow: FlowTemplate,
  request: string,
  improvement: string | null,
): SpecsIndexEntry {
  const findings = [
    ...flow.phases.flatMap((p) =>
      (state.phases[p.id]?.findings ?? []).map((f) => ({
        phase: p.id,
        severity: f.severity,
        description: f.description.replace(/^Task \d+: /, ''),
      })),
    ),
  ];
  const sum = totals(state);
  return {
    workspace: state.workspace,
    spec_name: state.spec_name,
    title: state.title,
    source_type: state.source.type,
    effort: state.effort,
    flow_template: state.flow_template,
    status: state.status,
    created_at: state.created_at,
    completed_at: state.completed_at,
    request: `${state.title}\n${stripFrontMatter(request)}`.slice(0, 2000),
    findings: findings.slice(0, 100),
    friction: improvement ? frictionPoints(improvement) : [],
    revisions: Object.values(state.revisions).reduce((a, b) => a + b, 0),
    total_tokens: sum.tokens,
    total_duration_ms: sum.duration_ms,
  };
}

/** Bullet lines of improvement.md (the retrospective agent writes one friction point per line). */
export function frictionPoints(markdown: string): string[] {
  const points: string[] = [];
  for (const line of stripFrontMatter(markdown).split(/\r?\n/)) {
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
    if (m) points.push(m[1].replace(/\*\*/g, '').trim());
  }
  return points.filter((p) => p.length > 0).slice(0, 30);
}

function stripFrontMatter(text: string): string {
  return text.replace(/^---\n[\s\S]*?\n---\n/, '').trim();
}
