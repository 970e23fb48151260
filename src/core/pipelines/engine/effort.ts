import type { ExternalContext } from '../pipelineContracts';
import type { Effort, FlowTemplate } from './flowTemplate';
import { efforts, skippedWithLabels } from './flowTemplate';
import type { PipelineFlags, SourceType } from './pipelineState';
import { slugify } from './requestSource';

/** Fields the orchestrator fetched from GitHub or Jira (the pipeline contract's `external_context`). */
export interface EffortInput {
  flags: Pick<PipelineFlags, 'effort_override'>;
  external: ExternalContext;
  text: string;
}

const largeWords =
  /\b(architecture|architectural|redesign|re-design|migrate|migration|rewrite|overhaul|framework|multi-tenant|new service|platform|epic)\b/i;
const smallWords =
  /\b(typo|rename|bump|readme|comment|docs?|documentation|one-line|spelling|wording|small|minor|tweak)\b/i;
const largeLabels = /^(epic|large|size[:/ -]?(l|xl)|effort[:/ -]?l)$/i;
const smallLabels = /^(small|size[:/ -]?(s|xs)|effort[:/ -]?s|typo|documentation|docs|good first issue|chore)$/i;

/**
 * Effort S / M / L, deterministic: the `--effort` flag, else Jira story points, else labels or
 * issue type, else the words and length of the request. M when nothing says otherwise.
 */
export function detectEffort(input: EffortInput): Effort {
  if (input.flags.effort_override) return input.flags.effort_override;
  const points = input.external.jira_story_points;
  if (typeof points === 'number' && Number.isFinite(points)) return points <= 2 ? 'S' : points <= 5 ? 'M' : 'L';
  const labels = input.external.github_labels ?? [];
  if (labels.some((l) => largeLabels.test(l.trim()))) return 'L';
  if (labels.some((l) => smallLabels.test(l.trim()))) return 'S';
  const type = (input.external.jira_issue_type ?? '').toLowerCase();
  if (type === 'epic') return 'L';
  if (type === 'sub-task' || type === 'subtask') return 'S';
  const words = input.text.split(/\s+/).filter(Boolean).length;
  if (largeWords.test(input.text) || words > 400) return 'L';
  if (smallWords.test(input.text) && words <= 40) return 'S';
  return 'M';
}

export interface EffortOption {
  skipped_phases: { phase_id: string; label: string }[];
  recommended: boolean;
}

export function effortOptions(flow: FlowTemplate, detected: Effort): Record<Effort, EffortOption> {
  const options = {} as Record<Effort, EffortOption>;
  for (const e of efforts) options[e] = { skipped_phases: skippedWithLabels(flow, e), recommended: e === detected };
  return options;
}

/** The request body an agent reads: title and body of the issue, or the task text. */
export function requestBody(
  sourceType: SourceType,
  coreText: string,
  external: ExternalContext,
  taskText?: string | null,
): { title: string; body: string } {
  if (sourceType === 'github_issue' && (external.github_title || external.github_body)) {
    const labels = external.github_labels?.length ? `\n\nLabels: ${external.github_labels.join(', ')}` : '';
    return {
      title: external.github_title?.trim() || coreText,
      body: `${external.github_body?.trim() ?? ''}${labels}`.trim(),
    };
  }
  if (sourceType === 'jira_issue' && (external.jira_summary || external.jira_description)) {
    const meta = [
      external.jira_issue_type && `Type: ${external.jira_issue_type}`,
      external.jira_story_points !== undefined && `Story points: ${external.jira_story_points}`,
    ]
      .filter(Boolean)
      .join(' · ');
    return {
      title: external.jira_summary?.trim() || coreText,
      body: `${external.jira_description?.trim() ?? ''}${meta ? `\n\n${meta}` : ''}`.trim(),
    };
  }
  const text = (taskText ?? '').trim() || coreText;
  const firstLine = text.split(/\r?\n/)[0].trim();
  return { title: firstLine.length > 100 ? `${firstLine.slice(0, 97)}...` : firstLine, body: text };
}

export const discussionQuestions = [
  'What is the main goal of this change?',
  'Are there any constraints or dependencies?',
  'What is the expected scope of changes?',
];

/** The body after the user answered the discussion questions. */
export function enrichWithDiscussion(body: string, answers: string): string {
  return `${body.trim()}\n\n## Discussion\n\n${discussionQuestions.map((q) => `- ${q}`).join('\n')}\n\n${answers.trim()}\n`;
}

export function isMainBranch(branch: string | null): boolean {
  return branch !== null && /^(main|master|trunk|develop|development)$/.test(branch);
}

const fixLabels = /^(bug|fix|bugfix|defect|regression)$/i;

/** `feature/42-fix-auth-timeout` (or `fix/…` for bugs). */
export function branchName(slug: string, sourceId: string | null, external: ExternalContext): string {
  const isFix =
    (external.github_labels ?? []).some((l) => fixLabels.test(l.trim())) ||
    /^bug$/i.test(external.jira_issue_type ?? '');
  const id = sourceId ? slugify(sourceId, 20) : '';
  const rest = id && slug.startsWith(`${id}-`) ? slug : [id, slug].filter(Boolean).join('-');
  return `${isFix ? 'fix' : 'feature'}/${rest}`;
}

export interface RequestDoc {
  sourceType: SourceType;
  sourceUrl: string | null;
  sourceId: string | null;
  effort: Effort;
  flowTemplate: string;
  branch: string | null;
  createdAt: string;
  title: string;
  body: string;
}

/** request.md: YAML-ish front matter the agents and the flywheel read, then the request. */
export function requestMarkdown(doc: RequestDoc): string {
  const q = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));
  return [
    '---',
    `source_type: ${doc.sourceType}`,
    `source_url: ${q(doc.sourceUrl)}`,
    `source_id: ${q(doc.sourceId)}`,
    `effort: ${doc.effort}`,
    `flow_template: ${doc.flowTemplate}`,
    `branch: ${q(doc.branch)}`,
    `created_at: ${doc.createdAt}`,
    '---',
    '',
    `# ${doc.title}`,
    '',
    doc.body.trim(),
    '',
  ].join('\n');
}
