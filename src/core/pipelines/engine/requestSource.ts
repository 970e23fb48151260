import type { Effort } from './flowTemplate';
import { efforts } from './flowTemplate';
import type { PipelineFlags, SourceType } from './pipelineState';

/**
 * pipeline_init's pure part: flags, source type and the proposed workspace name, from the
 * raw argument string of the seed's `/forge <arguments>`.
 */
export interface ParsedArguments {
  flags: PipelineFlags;
  coreText: string;
  errors: string[];
}

export interface DetectedSource {
  type: SourceType;
  url: string | null;
  id: string | null;
}

const MIN_INPUT = 3;
const MAX_INPUT = 50_000;

const flagWords: Record<string, keyof Pick<PipelineFlags, 'auto' | 'skip_pr' | 'debug' | 'discuss'>> = {
  '--auto': 'auto',
  '--nopr': 'skip_pr',
  '--no-pr': 'skip_pr',
  '--skip-pr': 'skip_pr',
  '--debug': 'debug',
  '--discuss': 'discuss',
};

/** Splits flags from the text. Unknown `--words` stay in the text: a request may quote a CLI flag. */
export function parseArguments(raw: string, currentBranch: string | null): ParsedArguments {
  const flags: PipelineFlags = {
    auto: false,
    skip_pr: false,
    debug: false,
    discuss: false,
    effort_override: null,
    current_branch: currentBranch,
  };
  const errors: string[] = [];
  const kept: string[] = [];
  const tokens = raw.split(/(\s+)/);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const lower = token.toLowerCase();
    if (flagWords[lower]) {
      flags[flagWords[lower]] = true;
      continue;
    }
    const effort = /^--effort(?:=(.*))?$/i.exec(token);
    if (effort) {
      let value = effort[1];
      if (value === undefined) {
        // `--effort M`: the value is the next non-space token.
        const next = tokens.slice(i + 1).findIndex((t) => t.trim() !== '');
        value = next >= 0 ? tokens[i + 1 + next] : '';
        if (next >= 0) i += 1 + next;
      }
      const upper = value.trim().toUpperCase();
      if ((efforts as readonly string[]).includes(upper)) flags.effort_override = upper as Effort;
      else errors.push(`--effort must be S, M or L (got ${JSON.stringify(value)})`);
      continue;
    }
    kept.push(token);
  }
  const coreText = kept.join('').replace(/\s+/g, ' ').trim();
  if (coreText.length < MIN_INPUT) errors.push(`input too short: minimum ${MIN_INPUT} characters required`);
  if (coreText.length > MAX_INPUT) errors.push(`input too long: at most ${MAX_INPUT} characters`);
  return { flags, coreText, errors };
}

const githubIssue = /https?:\/\/(?:www\.)?github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/(\d+)\b/i;
const jiraIssue = /https?:\/\/[\w-]+\.atlassian\.net\/browse\/([A-Z][A-Z0-9_]*-\d+)\b/i;
const specsRef = /(?:^|[\s"'`(])((?:\.\/)?\.specs\/[^\s"'`)]+)/;

/** The pipeline contract's source_type table. `workspace` wins: a path into .specs/ means "resume". */
export function detectSource(text: string): DetectedSource & { specsPath: string | null } {
  const specs = specsRef.exec(text);
  if (specs)
    return { type: 'workspace', url: null, id: null, specsPath: specs[1].replace(/^\.\//, '').replace(/\/+$/, '') };
  const gh = githubIssue.exec(text);
  if (gh) return { type: 'github_issue', url: gh[0], id: gh[3], specsPath: null };
  const jira = jiraIssue.exec(text);
  if (jira) return { type: 'jira_issue', url: jira[0], id: jira[1].toUpperCase(), specsPath: null };
  return { type: 'text', url: null, id: null, specsPath: null };
}

/** Lower-case words joined by "-", at most `max` characters, cut on a word boundary. */
export function slugify(text: string, max = 50): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug || 'pipeline';
  const cut = slug.slice(0, max + 1);
  const lastDash = cut.lastIndexOf('-');
  return (lastDash > 10 ? cut.slice(0, lastDash) : slug.slice(0, max)).replace(/-+$/g, '');
}

/** `yyyymmdd` of a date, in UTC so every process names a workspace alike. */
export function datePrefix(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, '');
}

/** The seed's `.specs/<yyyymmdd>-<slug>`; `taken` says whether a name is already used. */
export function proposeWorkspace(
  date: Date,
  coreText: string,
  taken: (name: string) => boolean,
): { workspace: string; specName: string } {
  const base = slugify(coreText);
  let name = `${datePrefix(date)}-${base}`;
  for (let n = 2; taken(name); n++) name = `${datePrefix(date)}-${base}-${n}`;
  return { workspace: `.specs/${name}`, specName: name.slice(9) };
}

/** What pipeline_init asks the orchestrator to fetch before pipeline_init_with_context. */
export function fetchNeeded(type: SourceType): { type: string; fields: string[]; instruction: string } | null {
  if (type === 'github_issue')
    return {
      type: 'github',
      fields: ['labels', 'title', 'body'],
      instruction: 'fetch github issue fields before calling pipeline_init_with_context',
    };
  if (type === 'jira_issue') {
    return {
      type: 'jira',
      fields: ['issue_type', 'story_points', 'summary', 'description'],
      instruction: 'fetch jira issue fields before calling pipeline_init_with_context',
    };
  }
  return null;
}
