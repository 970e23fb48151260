import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Opens `url` in the person's browser without putting it on a command line (it carries a
 * token, and command lines are visible to every process of the machine): like Jupyter, a page
 * only its owner can read redirects to it, and that file's path is what the opener gets. The
 * file is removed after a while. No shell: the opener and the path are separate arguments.
 */
export function openInBrowser(url: string, folder = os.tmpdir()): { opened: boolean; reason?: string } {
  const dir = fs.mkdtempSync(path.join(folder, 'agent-ledger-ui-'));
  const file = path.join(dir, 'open.html');
  const safe = url.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  fs.writeFileSync(
    file,
    `<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${safe}"><title>Agent Ledger</title><a href="${safe}">Open Agent Ledger</a>\n`,
    { mode: 0o600 },
  );
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  try {
    const child = spawn(opener, [file], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { opened: false, reason: (err as Error).message };
  }
  setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 60_000).unref();
  return { opened: true };
}
