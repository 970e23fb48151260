import type { PipelineHostMessage, PipelineModel, PipelineWebviewMessage } from '../../src/shared/protocol';
import { formatDuration, formatTokens } from '../../src/core/format';
import { button, h, time } from '../dom';
import type { Host } from '../hosts/host';
import { decisionBox, showRefusal } from './decision';
import { artifactsSection, decisionsSection, findingsSection, metricsSection } from './sections';
import { timelineSection } from './timeline';

interface State {
  folder: string;
  workspace: string;
}

type Post = (message: PipelineWebviewMessage) => void;

export type PipelineHost = Host<PipelineWebviewMessage, PipelineHostMessage, State>;

/**
 * The pipeline webview: header, the decision box of what waits for the person, the phase
 * timeline, review findings, metrics, decisions and artifacts. Everything but the decision box is
 * rebuilt on every model; the box is kept while the same wait lasts, so typing survives updates.
 */
export function mountPipeline(root: HTMLElement, host: PipelineHost): void {
  let model: PipelineModel | undefined;
  let document: { name: string; text: string | null } | undefined;
  let box: { key: string; el: HTMLElement } | undefined;
  let result: { ok: boolean; text: string } | undefined;
  const render = (): void => {
    if (!model) return;
    const w = model.waiting;
    // A new wait of the same checkpoint only comes after a decision: the decision count tells them apart.
    const key = w ? `${w.name}#${model.decisions.length}` : '';
    if (!w) box = undefined;
    else if (box?.key !== key) box = { key, el: decisionBox(w, host.post) };
    const flash = result
      ? h(
          'p',
          { class: `callout ${result.ok ? 'ok' : 'warn'}`, role: 'status', 'data-testid': 'decision-result' },
          result.text,
        )
      : null;
    root.replaceChildren(
      header(model, host.post),
      ...(flash ? [flash] : []),
      ...(box ? [box.el] : []),
      ...(document ? [documentView(document, () => ((document = undefined), render()))] : []),
      ...body(model, host.post),
    );
  };
  host.listen((message) => {
    switch (message.type) {
      case 'artifact':
        document = { name: message.name, text: message.text };
        render();
        root.querySelector<HTMLElement>('[data-testid=document]')?.focus();
        break;
      case 'pipeline':
        model = message.model;
        // Lets VS Code bring this panel back after a reload (the host's serializer reads it).
        host.setState({ folder: model.folder, workspace: model.workspace });
        render();
        break;
      case 'decided':
        result = { ok: message.ok, text: message.text };
        if (!message.ok && box) showRefusal(box.el, message.text);
        render();
        break;
      case 'error':
        root.replaceChildren(h('p', { class: 'error' }, message.message));
        break;
    }
  });
}

function header(m: PipelineModel, post: Post): HTMLElement {
  const facts = [
    `effort ${m.effort} (${m.flowTemplate} flow)`,
    m.status === 'running' || m.status === 'awaiting_human' ? `at ${m.currentLabel}` : null,
    m.totals.tokens > 0 ? formatTokens(m.totals.tokens) : null,
    m.totals.durationMs > 0 ? formatDuration(m.totals.durationMs / 1000) : null,
    m.branch ? `branch ${m.branch}` : null,
    `started ${time(m.createdAt)}`,
    m.completedAt ? `ended ${time(m.completedAt)}` : null,
  ].filter((f): f is string => f !== null);
  return h(
    'header',
    null,
    h(
      'nav',
      { class: 'crumbs', 'aria-label': 'Where this pipeline is' },
      m.folderName,
      ' › ',
      h('code', null, m.workspace),
    ),
    h('h1', null, m.title),
    h(
      'div',
      { class: 'facts' },
      h(
        'span',
        { class: `pill pipeline-${m.status}`, 'data-testid': 'status' },
        m.status === 'awaiting_human' ? 'waits for you' : m.status,
      ),
      ...facts.map((f) => h('span', { class: 'fact' }, f)),
      m.source.url
        ? h('span', { class: 'fact' }, m.source.url)
        : h('span', { class: 'chip' }, m.source.type.replace('_', ' ')),
    ),
    h(
      'div',
      { class: 'actions' },
      button('Refresh', () => post({ type: 'refresh' }), 'Re-read the pipeline'),
    ),
  );
}

function body(m: PipelineModel, post: Post): HTMLElement[] {
  return [
    timelineSection(m, post),
    findingsSection(m),
    metricsSection(m),
    decisionsSection(m),
    artifactsSection(m, post),
  ].filter((s): s is HTMLElement => s !== null);
}

/** A document of the pipeline shown in the view (hosts without an editor): its text, never as markup. */
function documentView(d: { name: string; text: string | null }, close: () => void): HTMLElement {
  return h(
    'section',
    { class: 'document', 'data-testid': 'document', tabindex: '-1', 'aria-label': d.name },
    h('h2', null, d.name, ' ', button('Close', close, 'Close the document')),
    d.text === null
      ? h('p', { class: 'muted' }, 'This file does not exist (yet).')
      : h('pre', { class: 'present' }, d.text),
  );
}
