/**
 * What a run of an agent CLI cost, as the client itself reported it, in one shape for every
 * client. A client that prints no cost (Codex, Gemini CLI) yields `costUsd: null`: the ledger
 * never estimates a price. Parsers are pure and tested with literal outputs.
 */

export interface RunUsage {
  /** Input tokens not served from a cache. */
  inputTokens: number | null;
  /** Output tokens, reasoning included. */
  outputTokens: number | null;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: number | null;
  /** Input tokens written to the prompt cache (Claude Code only). */
  cacheWriteTokens: number | null;
  /** Of `outputTokens`, those spent reasoning, when the client says. */
  reasoningTokens: number | null;
  /** US dollars as the client reported them; null when it reports none. */
  costUsd: number | null;
  /** Model turns (Claude Code `num_turns`, Codex `turn.completed` events). */
  turns: number | null;
  /** The client's session / thread id (to resume it). */
  sessionId: string | null;
  /** Whether the client said the run failed. */
  isError: boolean | null;
  /** The final answer, cut to 4000 characters. */
  result: string | null;
}

export const emptyUsage: RunUsage = {
  inputTokens: null,
  outputTokens: null,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  reasoningTokens: null,
  costUsd: null,
  turns: null,
  sessionId: null,
  isError: null,
  result: null,
};

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Sum of the numbers present; null when none is. */
export function sum(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) : null;
}

export function truncateResult(text: string | null): string | null {
  return text === null || text.length <= 4000 ? text : `${text.slice(0, 3999)}…`;
}

/**
 * The JSON objects of a stdout: every line that is one (JSON Lines), or the whole text when it
 * is a single pretty-printed object. Other lines (warnings, progress) are skipped.
 */
export function jsonObjects(stdout: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) objects.push(value as Record<string, unknown>);
    } catch {
      // Not a whole object on one line.
    }
  }
  if (objects.length > 0) return objects;
  const start = stdout.search(/^\{/m);
  if (start < 0) return [];
  try {
    const value = JSON.parse(stdout.slice(start)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}
