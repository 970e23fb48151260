// The webviews' front end (dist/webview.js). The host writes which view to render on
// <body data-view>; each view lives in its own folder (taskDetail/, pipeline/, board/, planGraph/).
import { mountPipeline } from './pipeline/pipeline';
import { mountTaskDetail } from './taskDetail/taskDetail';
import { mountBoard } from './board/board';
import { mountPlanGraph } from './planGraph/planGraph';

const views: Record<string, (root: HTMLElement) => void> = {
  taskDetail: mountTaskDetail,
  pipeline: mountPipeline,
  board: mountBoard,
  planGraph: mountPlanGraph,
};

const root = document.getElementById('app');
const mount = views[document.body.dataset.view ?? ''];
if (root && mount) mount(root);
else if (root) root.textContent = `Unknown view "${document.body.dataset.view ?? ''}".`;
