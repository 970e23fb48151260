/**
 * A tiny element builder. Text always goes in through text nodes, never as HTML, so nothing an
 * agent wrote can inject markup into the webview.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, '').toLowerCase(), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return el;
}

/** `12:04:33` today, `Mar 3, 12:04` otherwise, in the viewer's locale. */
export function time(iso: string): string {
  const d = new Date(iso);
  const today = new Date();
  return d.toDateString() === today.toDateString()
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A titled section of a view. */
export function section(title: string, ...children: (HTMLElement | null)[]): HTMLElement {
  return h('section', null, h('h2', null, title), ...children);
}

export function button(label: string, onClick: () => void, title?: string): HTMLButtonElement {
  return h('button', { type: 'button', title, onclick: onClick }, label);
}

export function link(label: string, onClick: () => void): HTMLAnchorElement {
  return h('a', { href: '#', role: 'button', onclick: (e: Event) => (e.preventDefault(), onClick()) }, label);
}

/** Replaces `root`'s children with those given, skipping what is absent. */
export function fill(root: HTMLElement, ...children: (Node | null | undefined | false)[]): void {
  root.replaceChildren(...children.filter((c): c is Node => !!c));
}
