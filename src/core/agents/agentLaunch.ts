/**
 * The `launch:` block of an agent definition: how the runner starts the agent when its client's
 * built-in launch is not what is wanted. Written at the top level of the file (the README's form);
 * `config: launch:` is read too, as earlier versions documented it.
 *
 * ```yaml
 * launch:
 *   command: [my-agent, --mcp, "{mcp_config}", --, "{prompt}"]   # any other CLI; default: the agent's client
 *   output: text                  # claude-json | codex-jsonl | gemini-json | text
 *   prompt_on_stdin: false
 *   max_turns: 40
 *   wall_clock_minutes: 60        # default 60
 *   idle_minutes: 15              # default: no idle limit
 *   max_output_mb: 64             # default 64
 *   access: workspaceWrite        # readOnly | workspaceWrite | fullAccess
 * ```
 * A bad block is refused with the field named, so a typo never launches something else.
 */
import { z } from 'zod';

const launchBlock = z.strictObject({
  command: z.array(z.string().max(10_000)).min(1).max(200).optional(),
  output: z.enum(['claude-json', 'codex-jsonl', 'gemini-json', 'text']).optional(),
  prompt_on_stdin: z.boolean().optional(),
  max_turns: z.number().int().min(1).max(10_000).optional(),
  wall_clock_minutes: z
    .number()
    .positive()
    .max(7 * 24 * 60)
    .optional(),
  idle_minutes: z
    .number()
    .positive()
    .max(24 * 60)
    .optional(),
  max_output_mb: z.number().positive().max(10_000).optional(),
  access: z.enum(['readOnly', 'workspaceWrite', 'fullAccess']).optional(),
});

export type AgentLaunch = z.infer<typeof launchBlock>;

/** The block, checked; throws an Error naming the field (`launch.wall_clock_minute: unknown key`). */
export function parseLaunchBlock(value: unknown): AgentLaunch {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('"launch" must be a mapping (command:, wall_clock_minutes:, …)');
  const parsed = launchBlock.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
  const field = ['launch', ...(issue?.path ?? []).map(String), ...keys.slice(0, 1)].join('.');
  const why =
    keys.length > 0 ? `unknown key (the block takes ${Object.keys(launchBlock.shape).join(', ')})` : issue?.message;
  throw new Error(`${field}: ${why ?? 'is not valid'}`);
}
