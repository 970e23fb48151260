// The temporary Git workspace an e2e run opens: a small project with one commit, plus a
// `.mcp.json` that already names another server (the registration commands must keep it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const initialFiles: Readonly<Record<string, string>> = {
  'README.md': '# Shop\n\nA tiny project for the Agent Ledger end-to-end tests.\n',
  'src/app.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n',
  'src/util.ts': 'export const answer = 42;\n',
  'docs/old.md': '# Old notes\n\nTo be deleted by the agent.\n',
  '.mcp.json': `${JSON.stringify({ mcpServers: { other: { command: 'other-server', args: ['--flag'] } } }, null, 2)}\n`,
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'E2E',
      GIT_AUTHOR_EMAIL: 'e2e@example.com',
      GIT_COMMITTER_NAME: 'E2E',
      GIT_COMMITTER_EMAIL: 'e2e@example.com',
    },
  });
}

export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
}

/**
 * A fresh repository with {@link initialFiles} committed (without `.mcp.json` when
 * `otherMcpServer` is false: VS Code itself discovers that file and tries to start the server it
 * names, which does not exist). The caller removes it.
 */
export function createWorkspace(prefix = 'al-e2e-ws-', otherMcpServer = true): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(
    dir,
    Object.fromEntries(Object.entries(initialFiles).filter(([name]) => otherMcpServer || name !== '.mcp.json')),
  );
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}
