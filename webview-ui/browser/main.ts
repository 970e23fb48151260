// The web board's front end (dist/web/web.js, served by `agent-ledger ui`): a shell with the
// views' navigation, the theme switch and the router, mounting the same views as VS Code's
// webviews on the browser host (hosts/browserHost.ts).
import type { ViewRoute } from '../../src/shared/protocol';
import { mountBoard } from '../board/board';
import { mountTaskDetail } from '../taskDetail/taskDetail';
import { mountPipeline } from '../pipeline/pipeline';
import { mountPlanGraph } from '../planGraph/planGraph';
import { mountRuns } from '../runs/runs';
import { mountAgents } from '../agents/agents';
import { mountMemory } from '../memory/memory';
import { browserHost } from '../hosts/browserHost';
import type { BrowserHost } from '../hosts/browserHost';
import { h } from '../dom';
import { routeOf, hashOf } from './routes';
import { themeSwitch } from './theme';

const app = document.getElementById('app')!;
const status = document.getElementById('connection')!;
let current: BrowserHost<{ type: string }, { type: string }, unknown> | undefined;

const nav: { label: string; route: ViewRoute; key: string }[] = [
  { label: 'Board', route: { view: 'board' }, key: 'b' },
  { label: 'Runs', route: { view: 'runs' }, key: 'r' },
  { label: 'Agents', route: { view: 'agents' }, key: 'a' },
  { label: 'Memory Bank', route: { view: 'memory' }, key: 'm' },
];

function drawNav(route: ViewRoute): void {
  const links = nav.map((n) =>
    h(
      'a',
      {
        href: hashOf(n.route),
        'aria-current': n.route.view === route.view ? 'page' : undefined,
        'aria-keyshortcuts': `Alt+${n.key.toUpperCase()}`,
        title: `${n.label} (Alt+${n.key.toUpperCase()})`,
      },
      n.label,
    ),
  );
  document.getElementById('nav')!.replaceChildren(...links);
}

function mount(route: ViewRoute): void {
  current?.dispose();
  drawNav(route);
  app.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  document.body.dataset.view = route.view;
  const host = browserHost<never, never, never>(
    route,
    (to) => {
      location.hash = hashOf(to);
    },
    (connected) => {
      status.textContent = connected ? '' : 'Reconnecting to agent-ledger ui…';
      status.className = connected ? '' : 'offline';
    },
  );
  current = host as unknown as typeof current;
  // Each view takes the host typed with its own messages: the same object, seen through its protocol.
  const any = host as never;
  switch (route.view) {
    case 'board':
      mountBoard(app, any);
      break;
    case 'taskDetail':
      mountTaskDetail(app, any);
      break;
    case 'pipeline':
      mountPipeline(app, any);
      break;
    case 'planGraph':
      mountPlanGraph(app, any);
      break;
    case 'runs':
      mountRuns(app, any, route.run);
      break;
    case 'agents':
      mountAgents(app, any);
      break;
    case 'memory':
      mountMemory(app, any, route.entry);
      break;
  }
  // Keyboard: focus the view's first heading, so screen readers and Tab start in the view.
  requestAnimationFrame(() => {
    const heading = app.querySelector<HTMLElement>('h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  });
}

window.addEventListener('hashchange', () => mount(routeOf(location.hash)));
window.addEventListener('keydown', (e) => {
  if (!e.altKey || e.ctrlKey || e.metaKey) return;
  const n = nav.find((x) => x.key === e.key.toLowerCase());
  if (!n) return;
  e.preventDefault();
  location.hash = hashOf(n.route);
});
document.getElementById('theme')!.replaceWith(themeSwitch());
mount(routeOf(location.hash));
