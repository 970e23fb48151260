import * as path from 'node:path';
import YAML from 'yaml';
import { parseFrontMatter, stringField } from '../files/frontMatter';
import type { AgentDefinition, AgentScope } from './agentModel';
import { defaultPermissionsFor, parsePermissions } from './agentPermissions';
import { agentClients } from './agentModel';
import type { AgentClient } from './agentModel';
import { parseLaunchBlock } from './agentLaunch';

/** The keys an agent file takes (YAML or Markdown front matter); any other is refused, so a typo never goes unnoticed. */
const agentFileKeys = [
  'name',
  'description',
  'client',
  'model',
  'scope',
  'permissions',
  'config',
  'launch',
  'promptContent',
];
const scopeKeys = ['read', 'write', 'exclude'];

/**
 * Agent definition files: `<name>.yaml` (the task-management contract's agent:// format, prompt in `promptContent`)
 * or `<name>.md` (the same fields as front matter, the prompt as the body).
 */
export const agentFileExtensions = ['.yaml', '.yml', '.md'] as const;

export function isAgentFile(name: string): boolean {
  return !name.startsWith('.') && agentFileExtensions.some((ext) => name.endsWith(ext));
}

/** Names appear in prompts, listings and URIs, never in paths: any single line of text. */
export function checkAgentName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'the name must be non-empty text';
  if (name.length > 100) return 'the name must be at most 100 characters';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'the name must be one line without control characters';
  return undefined;
}

/** Parses one agent file; throws an Error saying what is wrong with it. */
export function parseAgentFile(text: string, relativeFile: string): AgentDefinition {
  const isMarkdown = relativeFile.endsWith('.md');
  let data: Record<string, unknown>;
  let prompt: string | undefined;
  if (isMarkdown) {
    const doc = parseFrontMatter(text);
    data = doc.data;
    prompt = doc.body;
  } else {
    const parsed: unknown = text.trim() === '' ? {} : YAML.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('an agent file must be a YAML mapping (name:, client:, scope:, …)');
    data = parsed as Record<string, unknown>;
    prompt = stringField(data, 'promptContent');
  }
  refuseUnknownKeys(data, agentFileKeys, '');
  const stem = path.posix.basename(relativeFile).replace(/\.(ya?ml|md)$/, '');
  const name = stringField(data, 'name') ?? stem;
  const nameProblem = checkAgentName(name);
  if (nameProblem) throw new Error(nameProblem);
  const client = stringField(data, 'client') ?? 'claude-code';
  if (!(agentClients as readonly string[]).includes(client))
    throw new Error(`"client" must be one of ${agentClients.join(', ')} (got "${client}")`);
  const scope = parseScope(data.scope);
  const config = data.config ?? {};
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new Error('"config" must be a mapping');
  const nested = (config as Record<string, unknown>).launch;
  if (data.launch !== undefined && nested !== undefined)
    throw new Error('"launch" is given both at the top level and under "config": keep the top-level one');
  const launch = data.launch ?? nested;
  return {
    name: name.trim(),
    description: stringField(data, 'description') ?? null,
    client: client as AgentClient,
    model: stringField(data, 'model') ?? null,
    scope,
    permissions: parsePermissions(data.permissions, scope.write),
    config: config as Record<string, unknown>,
    ...(launch === undefined ? {} : { launch: parseLaunchBlock(launch) }),
    promptContent: prompt ?? '',
    file: relativeFile,
  };
}

function refuseUnknownKeys(data: Record<string, unknown>, known: readonly string[], prefix: string): void {
  const unknown = Object.keys(data).find((k) => !known.includes(k));
  if (unknown !== undefined)
    throw new Error(
      `unknown key "${prefix}${unknown}"; ${prefix ? `"${prefix.slice(0, -1)}"` : 'an agent file'} takes ${known.join(', ')}`,
    );
}

function parseScope(value: unknown): AgentScope {
  if (value === undefined || value === null) return { read: ['**/*'], write: ['**/*'], exclude: [] };
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error('"scope" must be a mapping with read, write and exclude lists');
  const scope = value as Record<string, unknown>;
  refuseUnknownKeys(scope, scopeKeys, 'scope.');
  return {
    read: globs(scope, 'read', ['**/*']),
    write: globs(scope, 'write', ['**/*']),
    exclude: globs(scope, 'exclude', []),
  };
}

function globs(scope: Record<string, unknown>, key: string, fallback: string[]): string[] {
  const value = scope[key];
  if (value === undefined || value === null) return fallback;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === 'string' && g.trim() !== ''))
    throw new Error(`"scope.${key}" must be a list of globs`);
  if (list.some((g: string) => /[\u0000-\u001f\u007f]/.test(g)))
    throw new Error(`"scope.${key}" globs must be single lines without control characters`);
  const cleaned = list.map((g: string) => g.trim().replace(/\\/g, '/').replace(/^\.\//, ''));
  const outside = cleaned.find((g) => g.startsWith('/') || /^[A-Za-z]:/.test(g) || g.split('/').includes('..'));
  if (outside) throw new Error(`"scope.${key}" glob "${outside}" must be relative to the repository, without ".."`);
  return cleaned;
}

/** The agent as the task-management contract's agent:// resource shows it: YAML, the prompt shortened when long. */
export function agentYaml(agent: AgentDefinition, maxPromptChars = 4000): string {
  const prompt =
    agent.promptContent.length > maxPromptChars
      ? `${agent.promptContent.slice(0, maxPromptChars)}\n… (${agent.promptContent.length - maxPromptChars} more characters in ${agent.file})\n`
      : agent.promptContent;
  const doc: Record<string, unknown> = {
    name: agent.name,
    description: agent.description ?? undefined,
    client: agent.client,
    model: agent.model ?? undefined,
    scope: agent.scope,
    // Always written: what the agent may do when it runs unattended is read in its own file.
    permissions: agent.permissions,
    config: Object.keys(agent.config).length ? agent.config : undefined,
    launch: agent.config.launch === undefined ? agent.launch : undefined,
    promptContent: prompt || undefined,
  };
  return YAML.stringify(doc, { lineWidth: 0, blockQuote: 'literal' });
}

/** The definitions written on first use, in the format `agentYaml` reads back. */
export const defaultAgents: ReadonlyArray<Omit<AgentDefinition, 'file'>> = [
  {
    name: 'coder',
    description: 'Implements the task: code, tests and documentation',
    client: 'claude-code',
    model: 'sonnet',
    scope: { read: ['**/*'], write: ['**/*'], exclude: ['**/*.env'] },
    permissions: defaultPermissionsFor(['**/*']),
    config: {},
    promptContent: [
      '# Coder',
      '',
      'You implement the task you are given, in the Git worktree you were started in.',
      '- Change only files inside your write scope; add or update tests for what you change.',
      '- Follow the project decisions of the Memory Bank.',
      '- Commit your work on the current branch with clear messages; do not push or merge.',
      '',
    ].join('\n'),
  },
  {
    name: 'reviewer',
    description: 'Reviews the changes of a task without modifying files',
    client: 'claude-code',
    model: 'haiku',
    scope: { read: ['**/*'], write: [], exclude: ['**/*.env'] },
    permissions: defaultPermissionsFor([]),
    config: {},
    promptContent: [
      '# Reviewer',
      '',
      'You review the changes made on the current branch for the task you are given.',
      '- Do not modify files: report findings (bugs, missing tests, unclear code) with file and line.',
      '- Check the changes against the task and the project decisions of the Memory Bank.',
      '',
    ].join('\n'),
  },
];
