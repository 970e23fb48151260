import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServices } from '../services';
import { createServer } from './server';
import { resolveFamilies } from './families';

export interface ServeOptions {
  workspace: string;
  dbPath?: string;
  enable?: readonly string[];
  disable?: readonly string[];
  verbose?: boolean;
  /** Accept `user_response` from agents at pipeline checkpoints (off: a person decides). */
  allowAgentCheckpoints?: boolean;
  /** `--worktrees-dir`: where task worktrees go instead of `.agent-ledger/worktrees`. */
  worktreesDir?: string;
}

/**
 * Runs one MCP server process over stdio until the client closes stdin. stdout carries only
 * the protocol (STYLE.md habit 7): anything else a library prints goes to stderr.
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  const familySet = resolveFamilies(options.enable, options.disable);
  const services = await createServices({ workspace: options.workspace, dbPath: options.dbPath, watch: true, allowAgentCheckpoints: options.allowAgentCheckpoints === true, worktreesDir: options.worktreesDir });
  const { server, dispose } = createServer(services, { families: familySet });
  const transport = new StdioServerTransport();
  let closed = false;
  const shutdown = (): void => {
    if (closed) return;
    closed = true;
    dispose();
    services.dispose();
  };
  server.onclose = shutdown;
  process.stdin.on('end', () => {
    shutdown();
    process.exit(0);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      shutdown();
      process.exit(0);
    });
  }
  await server.connect(transport);
  if (options.verbose) {
    const inner = transport.onmessage;
    transport.onmessage = (message) => {
      const m = message as { method?: string; id?: unknown; params?: { name?: string } };
      console.error(`[agent-ledger] ← ${m.method ?? 'response'}${m.params?.name ? ` ${m.params.name}` : ''}${m.id !== undefined ? ` #${String(m.id)}` : ''}`);
      inner?.(message);
    };
  }
  console.error(`[agent-ledger] MCP server ready on ${services.paths.workspace} (families: ${[...familySet].join(', ')})`);
}
