// Workbench helpers for the views that share the Agent Ledger side bar (one pane each) and for
// the multi-step forms (an input box or a quick pick per question).
import type { Locator, Page } from 'playwright-core';

/** A view's pane in the side bar, by its title (e.g. "Memory Bank"). */
export function pane(page: Page, title: string): Locator {
  return page
    .locator('.part.sidebar .monaco-pane-view .pane')
    .filter({ has: page.locator('.pane-header h3.title', { hasText: title }) });
}

/** Expands the pane when it is collapsed (a container with several views may start so). */
export async function expandPane(page: Page, title: string, timeoutMs = 15_000): Promise<Locator> {
  const p = pane(page, title);
  await p.waitFor({ state: 'visible', timeout: timeoutMs });
  if (!(await p.evaluate((el) => el.classList.contains('expanded')))) await p.locator('.pane-header').click();
  return p;
}

/** A row of one pane whose text (label + description) matches. */
export function paneRow(page: Page, title: string, text: string | RegExp): Locator {
  return pane(page, title).locator('.monaco-list-row').filter({ hasText: text }).first();
}

/** Clicks one of a row's inline actions (shown on hover), by the command's title. */
export async function clickRowAction(row: Locator, commandTitle: string): Promise<void> {
  await row.hover();
  await row.locator(`.actions .action-label[aria-label^="${commandTitle}"]`).click();
}

/** Clicks one of a pane's title actions (shown when the pane is hovered), by the command's title. */
export async function clickPaneAction(page: Page, title: string, commandTitle: string): Promise<void> {
  const header = pane(page, title).locator('.pane-header');
  await header.hover();
  await header.locator(`.actions .action-label[aria-label^="${commandTitle}"]`).click();
}

/** Right-clicks a row and picks an entry of its context menu. */
export async function contextMenu(page: Page, row: Locator, entry: string): Promise<void> {
  await row.click({ button: 'right' });
  const menu = page.locator('.monaco-menu');
  const item = menu.locator('.action-item').filter({ hasText: entry }).first();
  await item.waitFor({ state: 'visible', timeout: 10_000 });
  // A click right as the menu opens can be swallowed (it guards against the opening click's
  // mouse-up); hovering focuses the entry and Enter runs it, every time.
  await item.hover();
  await menu
    .locator('.action-item.focused')
    .filter({ hasText: entry })
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.press('Enter');
  await menu.first().waitFor({ state: 'hidden', timeout: 10_000 });
}

const widget = (page: Page): Locator => page.locator('.quick-input-widget');
const input = (page: Page): Locator => widget(page).locator('.quick-input-box input');

/** The message under the input box: its prompt, or the validation message while the value is refused. */
export function inputMessage(page: Page): Locator {
  return widget(page).locator('.quick-input-message');
}

/** Answers an input box once it shows `prompt` (so an answer never lands in the previous question). */
export async function answerText(
  page: Page,
  prompt: string | RegExp,
  value: string,
  timeoutMs = 15_000,
): Promise<void> {
  await inputMessage(page).filter({ hasText: prompt }).waitFor({ state: 'visible', timeout: timeoutMs });
  await input(page).fill(value);
  await page.keyboard.press('Enter');
}

/** Answers a quick pick once it asks `placeholder`: filters by the label and accepts the row it focuses. */
export async function answerPick(page: Page, placeholder: string, label: string, timeoutMs = 15_000): Promise<void> {
  const box = widget(page).locator(`.quick-input-box input[placeholder="${placeholder}"]`);
  await box.waitFor({ state: 'visible', timeout: timeoutMs });
  await box.fill(label);
  await widget(page)
    .locator('.monaco-list-row.focused')
    .filter({ hasText: label })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Enter');
}

/** Waits until the quick input is gone (the form finished). */
export async function formDone(page: Page, timeoutMs = 15_000): Promise<void> {
  await widget(page).waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Collapses a pane if it is there and expanded (room for the others in screenshots). */
export async function collapsePane(page: Page, title: string): Promise<void> {
  const p = pane(page, title);
  if ((await p.count()) > 0 && (await p.first().evaluate((el) => el.classList.contains('expanded'))))
    await p.first().locator('.pane-header').click();
}

/** Drags the side bar's edge so it is `width` pixels wide: tree rows show their whole description. */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const bar = await page.locator('.part.sidebar').boundingBox();
  if (!bar) throw new Error('no side bar');
  const edge = bar.x + bar.width;
  for (const sash of await page.locator('.monaco-sash.vertical').all()) {
    const box = await sash.boundingBox();
    if (!box || Math.abs(box.x + box.width / 2 - edge) > 6) continue;
    const y = box.y + box.height / 2;
    await page.mouse.move(edge, y);
    await page.mouse.down();
    await page.mouse.move(bar.x + width, y, { steps: 5 });
    await page.mouse.up();
    return;
  }
  throw new Error('the side bar’s sash was not found');
}
