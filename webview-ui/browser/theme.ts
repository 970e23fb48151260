import { h } from '../dom';

type Theme = 'system' | 'light' | 'dark';
const order: Theme[] = ['system', 'light', 'dark'];
const labels: Record<Theme, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

/**
 * The web board's theme: the VS Code theme variables the views use, defined for light and dark
 * (web.css), following the system's `prefers-color-scheme` unless the person picks one here.
 */
export function themeSwitch(): HTMLElement {
  let theme = (localStorage.getItem('agent-ledger:theme') as Theme | null) ?? 'system';
  const apply = (): void => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  };
  const b = h('button', { type: 'button', id: 'theme', 'data-testid': 'theme' }, labels[theme]);
  b.addEventListener('click', () => {
    theme = order[(order.indexOf(theme) + 1) % order.length];
    localStorage.setItem('agent-ledger:theme', theme);
    b.textContent = labels[theme];
    apply();
  });
  apply();
  return b;
}
