/**
 * Playwright's `test` with the page's context holding the server's operator token (e2e/room.spec.ts),
 * so Stop all on a test's own page can clean up whatever an earlier test left going. Not a spec file.
 *
 * An init script rather than the config's `storageState`: Playwright fills a storageState's local
 * storage by opening a page on the origin for every new context, which cost 1.2–1.6 s a test here
 * (2 shared cores) against 0.1 s for this. The script fills the token in on the server's own origin
 * whenever the key is absent (storageState did it once, at the start); contexts a test makes itself
 * with browser.newContext() get no token (none of them stops runs).
 */
import { expect, test as base, type Page } from '@playwright/test';
import { E2E_OPERATOR_TOKEN, e2eServerUrl } from '../playwright.config';

export const test = base.extend({
  // Each worker's tests go to the server of their own (playwright.config.ts), so two spec files at once
  // never share a run queue, a Room or a history.
  baseURL: async ({}, provide, testInfo) => {
    await provide(e2eServerUrl(testInfo.parallelIndex));
  },
  context: async ({ context, baseURL }, provide) => {
    await context.addInitScript(
      ({ origin, token }) => {
        if (location.origin !== origin) return;
        try {
          if (localStorage.getItem('stream-lab.operatorToken') === null) localStorage.setItem('stream-lab.operatorToken', token);
        } catch {
          // Storage refused (an opaque or error page): nothing to hold the token in.
        }
      },
      { origin: new URL(baseURL!).origin, token: E2E_OPERATOR_TOKEN },
    );
    await provide(context);
  },
});

export { expect } from '@playwright/test';

/** Stops whatever earlier tests left going, as the operator: Stop all is offered only while some run is going. */
export async function stopLeftovers(page: Page): Promise<void> {
  await expect(page.getByTestId('room-panel')).toContainText('you are the operator');
  const stop = page.getByTestId('stop-all-button');
  if (!(await stop.isVisible())) return;
  // The button goes once nothing runs: a run that ends between the look and the click left nothing to stop.
  await stop.click({ timeout: 5000 }).catch(async (error: unknown) => {
    if (await stop.isVisible()) throw error;
  });
}
export type { Browser, Locator, Page } from '@playwright/test';
