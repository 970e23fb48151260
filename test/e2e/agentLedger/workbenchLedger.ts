// Workbench helpers specific to Agent Ledger's UI: its tree rows, the task detail webview
// (two nested iframes), modal dialogs and editor tabs.
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** The content frame of the (only) open webview panel: workbench → webview host iframe → #active-frame. */
export function webviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

/** A tree row whose text (label + description) matches. */
export function treeRow(page: Page, text: string | RegExp): Locator {
  return page.locator('.part.sidebar .monaco-list-row').filter({ hasText: text }).first();
}

/** A button of the modal dialog (e.g. the rewind confirmation). */
export async function clickDialogButton(page: Page, label: string, timeoutMs = 15_000): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const text = await dialog.innerText();
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
  return text;
}

/** The active editor tab's label. */
export function activeTab(page: Page): Locator {
  return page.locator('.part.editor .tabs-container .tab.active');
}

/** Polls until `probe` holds (for files on disk, clipboard...). */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An editor's rendered text as plain text (Monaco renders spaces as no-break spaces). */
export function editorText(rendered: string): string {
  return rendered.replace(/\u00a0/g, ' ');
}

/**
 * Starts watching the side bar for a row whose text matches `pattern` (a MutationObserver in the
 * page, so no polling delay); the returned function resolves with the wall-clock time
 * (`Date.now()`) of the first animation frame after the row appeared. Start it before the write.
 */
export async function watchSidebarRow(page: Page, pattern: RegExp, timeoutMs = 10_000): Promise<() => Promise<number>> {
  const key = `__agentLedgerSeen${Math.random().toString(36).slice(2)}`;
  // A string, not a function: tsx's transform would add helpers the page does not have.
  await page.evaluate(`(() => {
    const re = new RegExp(${JSON.stringify(pattern.source)}, ${JSON.stringify(pattern.flags)});
    const sidebar = document.querySelector('.part.sidebar');
    if (!sidebar) throw new Error('no side bar');
    window[${JSON.stringify(key)}] = undefined;
    function check() {
      return Array.from(sidebar.querySelectorAll('.monaco-list-row')).some((row) => re.test(row.textContent || ''));
    }
    function done() {
      observer.disconnect();
      requestAnimationFrame(() => { window[${JSON.stringify(key)}] = Date.now(); });
    }
    const observer = new MutationObserver(() => { if (check()) done(); });
    observer.observe(sidebar, { subtree: true, childList: true, characterData: true });
    if (check()) done();
  })()`);
  return async () => {
    await page.waitForFunction(`window[${JSON.stringify(key)}] !== undefined`, undefined, {
      timeout: timeoutMs,
      polling: 50,
    });
    return (await page.evaluate(`window[${JSON.stringify(key)}]`)) as number;
  };
}
