import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); `CHROMIUM_PATH` points elsewhere. The registry's browser downloads are not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a closed network: no background traffic, no sandbox (CI runs as root), no GPU. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--metrics-recording-only',
  '--mute-audio',
];

/** Screenshots of every page, kept as test artifacts (git-ignored). */
export const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/e2e');

/** Launches headless Chromium with a fresh temporary profile; fails with the fix when the browser is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install it with "apt-get install -y chromium" (or set CHROMIUM_PATH); .ci/run does this on a fresh machine.`,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A fresh context (no storage from another test) with a desktop viewport and clipboard access. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  options: Pick<BrowserContextOptions, 'storageState' | 'viewport' | 'isMobile' | 'hasTouch'> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1360, height: 900 }, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Keeps a full-page screenshot of the current page under test-artifacts/e2e/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Runs axe on the page as it is now and returns the serious and critical violations (rule, impact and
 * the first offending elements), which the tests expect to be none.
 */
export async function seriousViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}
