import type {
  PlanGraphHostMessage,
  PlanGraphNodeItem,
  PlanGraphViewModel,
  PlanGraphWebviewMessage,
  PlanRunLeafView,
} from '../../src/shared/protocol';
import { truncate } from '../../src/core/format';
import { button, h } from '../dom';
import type { Host } from '../hosts/host';
import { leafText, planRunBar } from '../planRun/planRunBar';

interface State {
  folder: string;
  workflowId: number;
  /** The drawing's scale (1: as laid out); absent: fit to the page. */
  zoom?: number;
}

const ZOOMS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A state a person reads on the node. */
function stateText(n: PlanGraphNodeItem): string {
  if (n.status === 'done' && n.result && n.result !== 'success') return n.result.replace('_', ' ');
  if (n.status === 'in_progress' && n.progress !== null) return `in progress · ${Math.round(n.progress)}%`;
  return n.status.replace('_', ' ');
}

/**
 * A workflow's plan as a DAG: the host lays it out (dagre) and sends positions; this draws
 * them as SVG, nodes coloured by live task state. A click on a node opens its task.
 */
export function mountPlanGraph(
  root: HTMLElement,
  host: Host<PlanGraphWebviewMessage, PlanGraphHostMessage, State>,
): void {
  let zoom: number | undefined = host.getState()?.zoom;
  const status = h('p', { class: 'acted', role: 'status', 'data-testid': 'acted' });
  const render = (model: PlanGraphViewModel): void => {
    // Each node's leaf: its task's, unless a gate before it waits for a person (then Approve is what it needs).
    const leaves = new Map<string, PlanRunLeafView>();
    for (const l of model.run?.leaves ?? [])
      if (
        l.graphNode &&
        (l.kind === 'task' || l.state === 'needs-person') &&
        leaves.get(l.graphNode)?.state !== 'needs-person'
      )
        leaves.set(l.graphNode, l);
    host.setState({ folder: model.folder, workflowId: model.workflowId, zoom });
    // Dependencies: solid, with an arrow into the task that waits; sub-tasks: dashed from the parent, a dot at the sub-task.
    const edges = model.edges.map((e) =>
      svg(
        'polyline',
        {
          class: `edge edge-${e.kind}`,
          'data-from': e.from,
          'data-to': e.to,
          'data-kind': e.kind,
          points: e.points.map((p) => `${p.x},${p.y}`).join(' '),
          'marker-end': e.kind === 'parent' ? 'url(#sub-task)' : 'url(#arrow)',
        },
        svg('title', {}, e.kind === 'parent' ? `${e.to} is a sub-task of ${e.from}` : `${e.to} waits for ${e.from}`),
      ),
    );
    const nodes = model.nodes.map((n) => {
      // The plan run's word on this task (its state, agent, run, cost) in place of the task's own.
      const leaf = leaves.get(n.id);
      const g = svg(
        'g',
        {
          class: `node status-${n.status}${n.result ? ` result-${n.result}` : ''}${leaf ? ` plan-${leaf.state}` : ''}${n.why ? ` why-${n.why.kind}` : ''}`,
          'data-node': n.id,
          ...(leaf ? { 'data-plan-state': leaf.state } : {}),
          transform: `translate(${n.x - n.width / 2},${n.y - n.height / 2})`,
          tabindex: 0,
          role: 'button',
        },
        svg(
          'title',
          {},
          `${n.id}: ${n.title}${leaf?.reason ? `\n${leaf.reason}` : ''}${n.why ? `\n${n.why.text}` : ''}`,
        ),
        svg('rect', { width: n.width, height: n.height, rx: 6 }),
        svg('text', { x: 10, y: 20, class: 'node-title' }, truncate(n.title, leaf ? 27 : 30)),
        leaf
          ? svg('text', { x: 10, y: 40, class: 'node-state node-plan' }, truncate(`${n.id} · ${leafText(leaf)}`, 40))
          : svg(
              'text',
              { x: 10, y: 40, class: 'node-state' },
              `${n.id} · ${stateText(n)}${n.agent ? ` · ${n.agent}` : ''}`,
            ),
        ...(leaf ? [svg('circle', { cx: n.width - 12, cy: 14, r: 5, class: 'node-plan-badge' })] : []),
        ...(n.why
          ? [svg('text', { x: 10, y: 60, class: 'node-why', 'data-testid': 'node-why' }, truncate(n.why.text, 34))]
          : []),
      );
      g.addEventListener('click', () => host.post({ type: 'openTask', taskId: n.taskId }));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') host.post({ type: 'openTask', taskId: n.taskId });
      });
      return g;
    });
    const arrow = svg(
      'marker',
      {
        id: 'arrow',
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 8,
        markerHeight: 8,
        orient: 'auto-start-reverse',
      },
      svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow' }),
    );
    const subTaskEnd = svg(
      'marker',
      { id: 'sub-task', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 6, markerHeight: 6 },
      svg('circle', { cx: 5, cy: 5, r: 4, class: 'sub-task-end' }),
    );
    const drawing = svg(
      'svg',
      {
        class: 'plan-graph',
        width: model.width,
        height: model.height,
        viewBox: `0 0 ${model.width} ${model.height}`,
        'data-testid': 'plan-graph',
      },
      svg('defs', {}, arrow, subTaskEnd),
      ...edges,
      ...nodes,
    );
    const scroll = h('div', { class: 'graph-scroll', 'data-testid': 'graph-scroll' }, drawing);
    const scale = h('span', { class: 'muted', 'data-testid': 'zoom' });
    /** Fit: the whole graph in the page, never larger than laid out. */
    const fitted = (): number =>
      Math.min(
        1,
        (scroll.clientWidth - 8) / Math.max(1, model.width),
        (scroll.clientHeight - 8) / Math.max(1, model.height),
      );
    const apply = (): void => {
      const z = zoom ?? fitted();
      drawing.setAttribute('width', String(Math.round(model.width * z)));
      drawing.setAttribute('height', String(Math.round(model.height * z)));
      scale.textContent = `${Math.round(z * 100)}%${zoom === undefined ? ' (fit)' : ''}`;
      host.setState({ folder: model.folder, workflowId: model.workflowId, zoom });
    };
    const step = (dir: 1 | -1): void => {
      const z = zoom ?? fitted();
      zoom = dir > 0 ? (ZOOMS.find((x) => x > z + 0.001) ?? z) : ([...ZOOMS].reverse().find((x) => x < z - 0.001) ?? z);
      apply();
    };
    scroll.addEventListener(
      'wheel',
      (e) => {
        if (!e.ctrlKey && !e.metaKey) return;
        e.preventDefault();
        step(e.deltaY < 0 ? 1 : -1);
      },
      { passive: false },
    );
    const zoomButtons = [
      button('Fit', () => {
        zoom = undefined;
        apply();
      }),
      button('−', () => step(-1)),
      button('+', () => step(1)),
      button('100%', () => {
        zoom = 1;
        apply();
      }),
    ];
    zoomButtons[1].setAttribute('aria-label', 'Zoom out');
    zoomButtons[2].setAttribute('aria-label', 'Zoom in');
    for (const b of zoomButtons)
      b.dataset.testid = `zoom-${b.textContent === '−' ? 'out' : b.textContent === '+' ? 'in' : b.textContent}`;
    const dependencies = model.edges.filter((e) => e.kind === 'dependency').length;
    const subTasks = model.edges.length - dependencies;
    const summary = `${model.workflowKey} · ${model.nodes.length} tasks · ${dependencies} dependencies${subTasks ? ` · ${subTasks} sub-task${subTasks === 1 ? '' : 's'}` : ''}`;
    const legendLine = (kind: 'dependency' | 'parent', words: string, title: string): HTMLElement =>
      h(
        'span',
        { class: 'legend-item', title },
        svg(
          'svg',
          { width: 28, height: 10, class: 'plan-graph legend-line', 'aria-hidden': 'true' },
          svg('line', { x1: 1, y1: 5, x2: 27, y2: 5, class: `edge edge-${kind}` }),
        ),
        words,
      );
    const legend = model.edges.length
      ? [
          h(
            'span',
            { class: 'legend muted', 'data-testid': 'graph-legend' },
            legendLine('dependency', 'dependency', 'Solid, the arrow into the task that waits for the other'),
            ...(subTasks ? [legendLine('parent', 'sub-task of', 'Dashed, from a parent task to its sub-task')] : []),
          ),
        ]
      : [];
    const note =
      model.nodes.length && !dependencies
        ? [h('p', { class: 'muted' }, 'No dependencies recorded between these tasks: each can start on its own.')]
        : [];
    root.replaceChildren(
      h(
        'header',
        { class: 'board-header' },
        h('h1', null, model.name),
        h('span', { class: 'muted' }, summary),
        ...legend,
        ...(model.nodes.length ? [...zoomButtons, scale] : []),
        button('Refresh', () => host.post({ type: 'refresh' })),
      ),
      ...(model.run ? [planRunBar(model.run, (m) => host.post(m), { leaves: true }), status] : []),
      model.nodes.length ? scroll : h('p', { class: 'muted' }, 'This workflow has no tasks yet.'),
      ...note,
    );
    if (model.nodes.length) apply();
  };
  window.addEventListener('resize', () => {
    if (zoom === undefined) root.querySelector<HTMLElement>('[data-testid=zoom-Fit]')?.click();
  });
  host.listen((message) => {
    if (message.type === 'planGraph') render(message.model);
    else if (message.type === 'acted') {
      status.textContent = message.text;
      status.className = `acted ${message.ok ? 'ok' : 'warn'}`;
    } else if (message.type === 'error') root.replaceChildren(h('p', { class: 'error' }, message.message));
  });
}
