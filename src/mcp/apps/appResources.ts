import * as fs from 'node:fs';
import * as path from 'node:path';
import { appMimeType } from './clientSupport';

export const checkpointPage = 'ui://agent-ledger/checkpoint.html';
export const taskResultPage = 'ui://agent-ledger/task-result.html';

export const appPages: { uri: string; name: string; title: string; description: string; view: string }[] = [
  {
    uri: checkpointPage,
    name: 'checkpoint',
    title: 'Checkpoint',
    description: 'A pipeline checkpoint waiting for a person: what to read, and Approve / Request changes',
    view: 'checkpoint',
  },
  {
    uri: taskResultPage,
    name: 'task-result',
    title: 'Task result',
    description: "A task's outcome: its exact diff per file and what its runs cost",
    view: 'taskResult',
  },
];

/** dist/web beside the bundle (the app's script and the views' styles). */
function assetsDir(): string {
  for (const dir of [path.join(__dirname, 'web'), path.resolve(__dirname, '../../../dist/web')])
    if (fs.existsSync(path.join(dir, 'app.js'))) return dir;
  return path.join(__dirname, 'web');
}

/**
 * One app page: a single HTML file with the views' styles and the app's script inline (its frame
 * loads nothing from anywhere: `_meta.ui.csp` declares no domain). The same views as the editor
 * and the web board (webview-ui/app/main.ts).
 */
export function appPageHtml(uri: string): string | undefined {
  const page = appPages.find((p) => p.uri === uri);
  if (!page) return undefined;
  const dir = assetsDir();
  const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8');
  // Inline text must not close its element early.
  const style = `${read('webview.css')}\n${read('web.css')}`.replace(/<\/style/gi, '<\\/style');
  const script = read('app.js').replace(/<\/script/gi, '<\\/script');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${page.title} — Agent Ledger</title>
<style>${style}</style></head>
<body data-host="app" data-view="${page.view}"><main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script>${script}</script></body></html>`;
}

export const appResourceMeta = { ui: { csp: {}, prefersBorder: true } };
export { appMimeType };
