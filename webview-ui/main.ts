// The webviews' front end in VS Code (dist/webview.js). The host writes which view to render on
// <body data-view>; each view lives in its own folder and takes its host (hosts/vscodeHost.ts).
// The web board (browser/main.ts) and the MCP Apps (app/) mount the same views on other hosts.
import { mountPipeline } from './pipeline/pipeline';
import { mountTaskDetail } from './taskDetail/taskDetail';
import { mountBoard } from './board/board';
import { mountPlanGraph } from './planGraph/planGraph';
import { vscodeHost } from './hosts/vscodeHost';

const views: Record<string, (root: HTMLElement) => void> = {
  taskDetail: (root) => mountTaskDetail(root, vscodeHost()),
  pipeline: (root) => mountPipeline(root, vscodeHost()),
  board: (root) => mountBoard(root, vscodeHost()),
  planGraph: (root) => mountPlanGraph(root, vscodeHost()),
};

const root = document.getElementById('app');
const mount = views[document.body.dataset.view ?? ''];
if (root && mount) mount(root);
else if (root) root.textContent = `Unknown view "${document.body.dataset.view ?? ''}".`;
