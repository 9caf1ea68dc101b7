import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { TestServer, TestUser } from './server.js';

/** Debian's Chromium (CI installs it with `apt-get install -y chromium`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve('test-results/screenshots');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
  });
}

/** A fresh browser context (its own cookies) on the test server, at a desktop size unless told. */
export async function openPage(browser: Browser, server: TestServer, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** Signs in through the form, as a user does, and waits for the datasets page. */
export async function signIn(page: Page, user: TestUser, at = '/'): Promise<void> {
  await page.goto(at);
  await page.getByLabel('API key').fill(user.api_key);
  await page.getByLabel('API secret').fill(user.api_secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** How far the page is wider than the window, in CSS pixels (0 or less: nothing to scroll sideways). */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Whether the page as it is now fits a phone: checked at PHONE's size, then the size is put back. */
export async function overflowOnPhone(page: Page): Promise<number> {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    // One frame for the layout to follow the new width.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    return await pageOverflow(page);
  } finally {
    if (size) await page.setViewportSize(size);
  }
}

/** Keeps a full-page screenshot under test-results/screenshots (git-ignored) for a reviewer to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<{ id: string; help: string; targets: string[] }[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
