import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, pageOverflow } from '../support/browser.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: sign in and out', () => {
  it('serves the page to a browser at / and at a deep link, and JSON to a script', async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).toContain('<div id="root"></div>');
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    expect((await fetch(`${server.url}/datasets/1234/media/5678`, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await server.api(null, 'GET', '/')).body).toMatchObject({ name: 'Loupe', docs: '/docs' });
    expect((await fetch(`${server.url}/assets/nothing-here.js`)).status).toBe(404);
  });

  it('sends a visitor to the sign-in form, shows a wrong secret as the API words it, then signs in and back out', async () => {
    const page = await openPage(browser, server);
    await page.goto('/tasks?task_status=FAILED');
    await page.getByRole('heading', { name: 'Sign in to Loupe' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await page.getByLabel('API key').fill(user.api_key);
    await page.getByLabel('API secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Invalid api_key or api_secret');

    await page.getByLabel('API secret').fill(user.api_secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // Back where the visitor was going, with the query kept.
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/tasks?task_status=FAILED');
    await page.getByText(user.email).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'loupe_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Loupe' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/v1/auth/me')).status);
    expect(me).toBe(401);
    await page.context().close();
  });

  it('never follows a next= to another site after sign-in', async () => {
    for (const next of ['//evil.example/steal', '/\\evil.example/steal', 'https://evil.example/']) {
      const page = await openPage(browser, server);
      await signIn(page, user, `/sign-in?next=${encodeURIComponent(next)}`);
      expect(page.url()).toBe(`${server.url}/datasets`);
      await page.context().close();
    }
  });

  it('can be used by keyboard alone: the form, then the skip link and the main navigation', async () => {
    const page = await openPage(browser, server);
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Loupe' }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? '');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('api_key');
    await page.keyboard.type(user.api_key);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('api_secret');
    await page.keyboard.type(user.api_secret);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { name: 'Datasets', level: 1 }).waitFor();

    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Tasks');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tasks');
    await page.context().close();
  });

  it('fits a phone screen', async () => {
    const page = await openPage(browser, server, PHONE);
    await page.goto('/sign-in');
    const overflow = await pageOverflow(page);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'sign-in-phone');
    await page.context().close();
  });
});
