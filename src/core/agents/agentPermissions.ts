/**
 * What an agent may do when nobody is there to approve anything: the `permissions:` block of its
 * definition (`.agent-ledger/agents/<name>.yaml|md`), one level plus commands added or forbidden.
 *
 * ```yaml
 * permissions:
 *   level: commit              # read | edit | test | commit | full (default commit)
 *   commands: [npm run e2e]    # more commands it may run, besides its level's
 *   never: [npm publish]       # commands it may never run, besides the built-in ones
 * ```
 *
 * A command is a prefix of words (`npm test` allows `npm test -- --grep x`). Each client gets the
 * same permissions in its own terms (src/core/runtime/launch/clientPermissions.ts); the table in
 * docs/agent-permissions.md says what each level becomes for Claude Code, Codex and Gemini CLI.
 */

/** From least to most: each level allows what the one before it does. */
export const permissionLevels = ['read', 'edit', 'test', 'commit', 'full'] as const;
export type PermissionLevel = (typeof permissionLevels)[number];

/** What a level means, in one line each (`agent permissions`, the docs). */
export const levelMeanings: Record<PermissionLevel, string> = {
  read: 'read files and call the ledger’s tools; no edits, no commands',
  edit: 'also edit files in its worktree',
  test: 'also run the project’s test and build commands',
  commit: 'also commit on its own branch (git add, commit, status, diff, log)',
  full: 'any command and tool, no sandbox: only on a machine that is itself a sandbox',
};

/** The `permissions:` block as written (defaults filled in). */
export interface AgentPermissions {
  level: PermissionLevel;
  /** Commands it may run besides its level's (prefixes of words). */
  commands: string[];
  /** Commands it may never run besides the built-in {@link neverCommands}. */
  never: string[];
}

/** Edit, test and commit in its worktree, and nothing else. */
export const defaultPermissions: AgentPermissions = { level: 'commit', commands: [], never: [] };

/** The Git commands of the `commit` level: its own branch, in its own worktree. */
export const commitCommands: readonly string[] = [
  'git status',
  'git diff',
  'git log',
  'git show',
  'git add',
  'git rm',
  'git mv',
  'git commit',
];

/**
 * Never, at any level: whatever publishes the work, moves it to another branch or leaves the
 * worktree's branch. Landing is a person's decision (`agent-ledger task land`).
 */
export const neverCommands: readonly string[] = [
  'git push',
  'git merge',
  'git rebase',
  'git pull',
  'git fetch',
  'git reset',
  'git checkout',
  'git switch',
  'git branch',
  'git update-ref',
  'git worktree',
  'git remote',
  'git config',
];

/**
 * A command is plain words: letters, digits and `. _ / @ : = + -`, separated by single spaces.
 * No quotes, globs, pipes or commas: each client matches prefixes of words, and a comma would
 * split Claude Code's `--allowedTools` list.
 */
const commandPattern = /^[A-Za-z0-9_./@:=+-]+( [A-Za-z0-9_./@:=+-]+)*$/;

export function checkCommand(command: string): string | undefined {
  if (command.length > 200) return `"${command.slice(0, 40)}…" is too long (at most 200 characters)`;
  if (!commandPattern.test(command))
    return `"${command}" is not a command prefix: plain words (letters, digits, . _ / @ : = + -) separated by single spaces`;
  return undefined;
}

/** Without a `permissions:` block: `commit`, or `read` for an agent whose write scope is empty (a reviewer). */
export function defaultPermissionsFor(writeScope: readonly string[]): AgentPermissions {
  return { ...defaultPermissions, level: writeScope.length === 0 ? 'read' : defaultPermissions.level };
}

/** Parses the `permissions:` block of a definition; throws an Error saying what is wrong. */
export function parsePermissions(value: unknown, writeScope: readonly string[] = ['**']): AgentPermissions {
  const fallback = defaultPermissionsFor(writeScope);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return { ...fallback, level: levelOf(value) };
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error('"permissions" must be a level or a mapping with level, commands and never');
  const block = value as Record<string, unknown>;
  const unknown = Object.keys(block).filter((k) => !['level', 'commands', 'never'].includes(k));
  if (unknown.length > 0)
    throw new Error(`"permissions" has unknown field(s) ${unknown.join(', ')} (accepted: level, commands, never)`);
  const level = block.level === undefined ? fallback.level : levelOf(block.level);
  const commands = commandList(block.commands, 'commands');
  if (commands.length > 0 && permissionLevels.indexOf(level) < permissionLevels.indexOf('test'))
    throw new Error(`"permissions.commands" needs level test or above: at ${level} the agent runs no command`);
  return { level, commands, never: commandList(block.never, 'never') };
}

function levelOf(value: unknown): PermissionLevel {
  if (typeof value === 'string' && (permissionLevels as readonly string[]).includes(value.trim()))
    return value.trim() as PermissionLevel;
  throw new Error(`"permissions.level" must be one of ${permissionLevels.join(', ')} (got ${JSON.stringify(value)})`);
}

function commandList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string'))
    throw new Error(`"permissions.${key}" must be a list of commands`);
  const cleaned = list.map((c: string) => c.trim().replace(/\s+/g, ' '));
  for (const command of cleaned) {
    const problem = checkCommand(command);
    if (problem) throw new Error(`"permissions.${key}": ${problem}`);
  }
  return [...new Set(cleaned)];
}

/** The permissions of one run: what the level allows, resolved against the project's commands. */
export interface ResolvedPermissions {
  level: PermissionLevel;
  /** Commands it may run (empty at `read` and `edit`; at `full`, every command). */
  commands: string[];
  /** Commands it may never run: the built-in ones and the definition's own. */
  never: string[];
}

/**
 * `projectCommands`: the project's test and build commands (`.agent-ledger/workspace.yaml`, or
 * found in package.json): what `test` and above allow besides the definition's own.
 */
export function resolvePermissions(
  permissions: AgentPermissions,
  projectCommands: readonly string[],
): ResolvedPermissions {
  const at = permissionLevels.indexOf(permissions.level);
  const commands: string[] = [];
  if (at >= permissionLevels.indexOf('test')) commands.push(...projectCommands);
  if (at >= permissionLevels.indexOf('commit')) commands.push(...commitCommands);
  commands.push(...permissions.commands);
  return {
    level: permissions.level,
    commands: [...new Set(commands)],
    never: [...new Set([...neverCommands, ...permissions.never])],
  };
}

/** The level an older `launch.access` stands for (readOnly, workspaceWrite, fullAccess). */
export function levelOfAccess(access: 'readOnly' | 'workspaceWrite' | 'fullAccess'): PermissionLevel {
  return access === 'readOnly' ? 'read' : access === 'fullAccess' ? 'full' : 'edit';
}
