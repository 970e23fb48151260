/**
 * How each client's own tools carry out a script action: which tool, which arguments, and what
 * must come first. What is written here is what the real clients required when run against the
 * scripted model (see docs/agent-clients.md):
 * - Claude Code: MCP tools are deferred (names only) and loaded with ToolSearch `select:<name>`;
 *   Edit refuses a file not Read earlier in the conversation; Bash takes `command`.
 * - Codex: shell through `exec_command` (`cmd`), or `shell_command` / `shell` on models that use
 *   them; edits through the free-form `apply_patch` tool, whose input is a patch; tools it only
 *   names are found with `tool_search`.
 * - Gemini CLI: `run_shell_command` (`command`), `replace` (`old_string` / `new_string`) and
 *   `write_file`; MCP tools are listed with their schema.
 */
import * as fs from 'node:fs';
import type { ClientKind, Conversation } from './conversation';
import type { Action, Plan, Planner } from './script';

type ToolAction = Exclude<Action, { say: string }>;

function unavailable(conversation: Conversation, what: string): Plan {
  const listed = conversation.tools.map((t) => t.name).join(', ');
  const deferred = conversation.deferred.length ? `; named only: ${conversation.deferred.join(', ')}` : '';
  return { error: `${what} is not among the tools ${conversation.client} gave the model (${listed}${deferred})` };
}

/** Whether the conversation already holds a successful call of `tool` on `file`. */
function touched(conversation: Conversation, tools: string[], file: string, key: string): boolean {
  return conversation.calls.some(
    (c) => tools.includes(c.name) && (c.args as Record<string, unknown> | null)?.[key] === file,
  );
}

/** A call of one of our MCP tools, or the search that makes it callable first. */
function mcpCall(
  action: Extract<ToolAction, { callTool: string }>,
  conversation: Conversation,
  search?: (name: string) => Plan,
): Plan {
  const tool = conversation.tool(action.callTool, action.server);
  if (tool) return { call: { name: tool.name, args: action.args ?? {}, namespace: tool.namespace } };
  const deferred = conversation.deferredTool(action.callTool, action.server);
  if (deferred && search) return search(deferred);
  return unavailable(conversation, `the tool ${action.callTool}`);
}

function needTool(conversation: Conversation, names: string[], make: (name: string) => Plan, what: string): Plan {
  const name = names.find((n) => conversation.tool(n)?.name === n);
  return name ? make(name) : unavailable(conversation, what);
}

const claude: Planner = (action, conversation) => {
  if ('callTool' in action) {
    return mcpCall(action, conversation, (name) =>
      conversation.tool('ToolSearch')
        ? { call: { name: 'ToolSearch', args: { query: `select:${name}`, max_results: 5 } }, prerequisite: true }
        : unavailable(conversation, 'ToolSearch'),
    );
  }
  if ('shell' in action)
    return needTool(
      conversation,
      ['Bash'],
      (name) => ({ call: { name, args: { command: action.shell, description: 'Run the scripted command' } } }),
      'a shell tool (Bash)',
    );
  if ('editFile' in action) {
    if (!touched(conversation, ['Read', 'Write', 'Edit'], action.editFile, 'file_path'))
      return { call: { name: 'Read', args: { file_path: action.editFile } }, prerequisite: true };
    return needTool(
      conversation,
      ['Edit'],
      (name) => ({
        call: { name, args: { file_path: action.editFile, old_string: action.oldText, new_string: action.newText } },
      }),
      'an edit tool (Edit)',
    );
  }
  if ('writeFile' in action) {
    if (
      fs.existsSync(action.writeFile) &&
      !touched(conversation, ['Read', 'Write', 'Edit'], action.writeFile, 'file_path')
    ) {
      return { call: { name: 'Read', args: { file_path: action.writeFile } }, prerequisite: true };
    }
    return needTool(
      conversation,
      ['Write'],
      (name) => ({ call: { name, args: { file_path: action.writeFile, content: action.content } } }),
      'a write tool (Write)',
    );
  }
  return { call: { name: action.clientTool, args: action.args } };
};

/** The lines of a region of whole lines (its last newline ends the last line, it starts none). */
function linesOf(region: string): string[] {
  if (region === '') return [];
  return (region.endsWith('\n') ? region.slice(0, -1) : region).split('\n');
}

/** An apply_patch patch that replaces the whole lines holding `oldText` (read from the file now). */
export function replacementPatch(file: string, oldText: string, newText: string): string {
  const content = fs.readFileSync(file, 'utf8');
  const at = content.indexOf(oldText);
  if (oldText === '' || at < 0 || content.indexOf(oldText, at + 1) >= 0)
    throw new Error(`"${oldText}" is not found exactly once in ${file}`);
  const end = at + oldText.length;
  const lineStart = content.lastIndexOf('\n', at - 1) + 1;
  // The region ends with the line holding the last character of oldText, its newline included.
  const endOfLine = (from: number) => {
    const newline = content.indexOf('\n', from);
    return newline < 0 ? content.length : newline + 1;
  };
  let regionEnd = endOfLine(end - 1);
  let replaced = content.slice(lineStart, at) + newText + content.slice(end, regionEnd);
  // A replacement that joins the next line takes that line in.
  while (replaced !== '' && !replaced.endsWith('\n') && regionEnd < content.length) {
    const next = endOfLine(regionEnd);
    replaced += content.slice(regionEnd, next);
    regionEnd = next;
  }
  const oldLines = linesOf(content.slice(lineStart, regionEnd));
  const newLines = linesOf(replaced);
  return [
    '*** Begin Patch',
    `*** Update File: ${file}`,
    '@@',
    ...oldLines.map((l) => `-${l}`),
    ...newLines.map((l) => `+${l}`),
    '*** End Patch',
    '',
  ].join('\n');
}

function addFilePatch(file: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return ['*** Begin Patch', `*** Add File: ${file}`, ...lines.map((l) => `+${l}`), '*** End Patch', ''].join('\n');
}

function applyPatch(conversation: Conversation, patch: () => string): Plan {
  const tool = conversation.tool('apply_patch');
  if (!tool) return unavailable(conversation, 'an edit tool (apply_patch)');
  let text: string;
  try {
    text = patch();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return tool.freeform
    ? { call: { name: tool.name, args: text, kind: 'freeform' } }
    : { call: { name: tool.name, args: { input: text } } };
}

/** How many tool searches end the conversation: the ones already made for the pending call. */
function trailingSearches(conversation: Conversation): number {
  let count = 0;
  for (let i = conversation.calls.length - 1; i >= 0 && conversation.calls[i].name === 'tool_search'; i--) count++;
  return count;
}

/** Codex's name for an MCP server's namespace: `mcp__` and the name with `-` as `_`. */
export function codexNamespace(server: string): string {
  return `mcp__${server.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

const codex: Planner = (action, conversation) => {
  if ('callTool' in action) {
    // A tool a search loaded: listed in its server's namespace (`mcp__<server>`).
    const loaded = conversation.tools.find(
      (t) =>
        t.name === action.callTool &&
        t.namespace?.startsWith('mcp__') &&
        (!action.server || t.namespace === codexNamespace(action.server)),
    );
    if (loaded) return { call: { name: loaded.name, args: action.args ?? {}, namespace: loaded.namespace } };
    const direct = mcpCall(action, conversation);
    if ('call' in direct) return direct;
    // MCP servers are deferred namespaces: the client-run tool_search loads their tools.
    const namespaces = conversation.deferred.filter((n) =>
      action.server ? n === codexNamespace(action.server) : n.startsWith('mcp__'),
    );
    if (namespaces.length > 0 && conversation.tool('tool_search')) {
      // BM25 over names and descriptions: the name first; then its words and the server's name
      // (a name that is a stop word, like "both", finds nothing alone).
      const words = [
        action.callTool.replace(/_/g, ' '),
        ...namespaces.map((n) => n.slice('mcp__'.length).replace(/_/g, ' ')),
      ].join(' ');
      return {
        call: {
          name: 'tool_search',
          args: { query: trailingSearches(conversation) === 0 ? action.callTool : words, limit: 8 },
          kind: 'toolSearch',
        },
        prerequisite: true,
      };
    }
    return direct;
  }
  if ('shell' in action) {
    if (conversation.tool('exec_command')) return { call: { name: 'exec_command', args: { cmd: action.shell } } };
    if (conversation.tool('shell_command')) return { call: { name: 'shell_command', args: { command: action.shell } } };
    return needTool(
      conversation,
      ['shell'],
      (name) => ({ call: { name, args: { command: ['bash', '-lc', action.shell] } } }),
      'a shell tool (exec_command, shell_command or shell)',
    );
  }
  if ('editFile' in action)
    return applyPatch(conversation, () => replacementPatch(action.editFile, action.oldText, action.newText));
  if ('writeFile' in action) {
    return applyPatch(conversation, () =>
      fs.existsSync(action.writeFile)
        ? replacementPatch(action.writeFile, fs.readFileSync(action.writeFile, 'utf8'), action.content)
        : addFilePatch(action.writeFile, action.content),
    );
  }
  return { call: { name: action.clientTool, args: action.args } };
};

const gemini: Planner = (action, conversation) => {
  if ('callTool' in action) return mcpCall(action, conversation);
  if ('shell' in action)
    return needTool(
      conversation,
      ['run_shell_command'],
      (name) => ({ call: { name, args: { command: action.shell, description: 'Run the scripted command' } } }),
      'a shell tool (run_shell_command)',
    );
  if ('editFile' in action) {
    return needTool(
      conversation,
      ['replace'],
      (name) => ({
        call: {
          name,
          args: {
            file_path: action.editFile,
            old_string: action.oldText,
            new_string: action.newText,
            instruction: 'Apply the scripted edit',
          },
        },
      }),
      'an edit tool (replace)',
    );
  }
  if ('writeFile' in action)
    return needTool(
      conversation,
      ['write_file'],
      (name) => ({ call: { name, args: { file_path: action.writeFile, content: action.content } } }),
      'a write tool (write_file)',
    );
  return { call: { name: action.clientTool, args: action.args } };
};

export const planners: Record<ClientKind, Planner> = { claude, codex, gemini };
