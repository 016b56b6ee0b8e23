/**
 * What many end-to-end tests do on the lab page: open it (a lab chosen, earlier runs stopped),
 * pick strategies, press Start and find the cards the new experiment made. Not a spec file.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { stopLeftovers } from './fixtures';

/** Opens the page, waits for the server's snapshot, stops whatever earlier tests left going and switches to `lab`. */
export async function openLab(page: Page, lab: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await stopLeftovers(page);
  await page.getByTestId(`lab-option-${lab}`).check();
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', lab);
}

/** Checks exactly these strategies in the picker. */
export async function pickStrategies(page: Page, strategies: readonly string[]): Promise<void> {
  const boxes = page.locator('[data-testid^="strategy-checkbox-"]');
  await expect(boxes.first()).toBeVisible();
  for (const box of await boxes.all()) {
    const id = (await box.getAttribute('data-testid'))!.replace('strategy-checkbox-', '');
    await box.setChecked(strategies.includes(id));
  }
}

/** Run ids of the cards on the page now. */
function cardIds(page: Page): Promise<string[]> {
  return page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')!));
}

/** Presses Start and returns the `count` cards it made (in the experiment's order) and their run ids. */
export async function startAndFindCards(page: Page, count: number): Promise<{ ids: string[]; cards: Locator[] }> {
  const before = new Set(await cardIds(page));
  await page.getByTestId('start-button').click();
  let ids: string[] = [];
  await expect
    .poll(async () => {
      ids = (await cardIds(page)).filter((id) => !before.has(id));
      return ids.length;
    })
    .toBe(count);
  return { ids, cards: ids.map((id) => page.locator(`[data-testid="run-card"][data-run-id="${id}"]`)) };
}
