import { spawn } from 'node:child_process';

export type McpToolName = 'conformance' | 'node22' | 'inspector';

/**
 * The program of a pinned MCP tool (scripts/mcpTools.mjs), installed into .mcp-tools/ on first
 * use (one npm install, ~20 s per tool; nothing outside the clone). Undefined only when the
 * install fails off CI (no registry): the test then skips and says why; in CI it fails.
 */
export async function mcpTool(name: McpToolName): Promise<string> {
  // The installer is a plain script (.ci/run and people run it too).
  const { installMcpTool, mcpToolStatus } = await import('../../scripts/mcpTools.mjs');
  const status = mcpToolStatus(name);
  if (status.ok) return status.program;
  try {
    return installMcpTool(name, { log: (m: string) => console.error(`[mcp tools] ${m}`) }).program;
  } catch (err) {
    if (process.env.CI) throw err;
    throw new SkipTool(`${name} is not installed and could not be: ${(err as Error).message.split('\n')[0]}`);
  }
}

export class SkipTool extends Error {}

/** Runs a program to its end (async: servers under test live in this process's children). */
export function run(
  program: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
