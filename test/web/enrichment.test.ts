import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrichmentModel } from '../../src/modules/enrichment/enrichment-models.js';
import { launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, overflowOnPhone } from '../support/browser.js';
import { type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

/**
 * The Enrichment tab on a real server, enriching with the "bring your own" captioner: an OpenAI-compatible endpoint
 * (the small fake of the contract tests), the one real model path fast enough for a browser test and holdable.
 */
let server: TestServer;
let fake: FakeOpenAi;
let browser: Browser;
let user: TestUser;
let sourceId: string;
let page: Page;

const BYO_NAME = 'fake-vision-1 (OpenAI-compatible endpoint)';
const OBJECT_CAPTIONER = 'Object captioner (measured facts)';
const DETECTOR = 'CenterNet MobileNetV3 (COCO-80)';

beforeAll(async () => {
  fake = await startFakeOpenAi();
  [server, browser] = await Promise.all([
    startTestServer({ env: { ENRICH_OPENAI_BASE_URL: fake.baseUrl, ENRICH_OPENAI_MODEL: 'fake-vision-1', ENRICH_OPENAI_API_KEY: 'sk-test', ENRICH_OPENAI_RETRIES: '1' } }),
    launchBrowser(),
  ]);
  // OCR listed as a server without the tesseract files lists it (every runtime is installed here).
  const service = server.loupe.container.services.enrichment as unknown as { catalogue: () => EnrichmentModel[] };
  const installed = service.catalogue;
  service.catalogue = () => installed().map((m) => (m.type === 'OCR_TEXT' ? { ...m, status: 'Coming Soon' } : m));
  user = await server.createUser();
  ({ datasetId: sourceId } = await createDataset(server, user, 'pets', [[photo('dog.jpg')]]));
  page = await openPage(browser, server);
  await signIn(page, user, `/datasets/${sourceId}/enrich`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fake?.close();
});

describe('web app: the Enrichment tab', () => {
  it('lists the models by type, Coming Soon disabled, and a dependency explained and enforced', async () => {
    await page.getByRole('heading', { name: 'Enrichment' }).waitFor();
    expect(await page.getByRole('link', { name: 'Enrichment' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Nothing applied yet').waitFor();
    const group = (name: string) => page.getByRole('group', { name });
    for (const name of ['Object detection', 'Text recognition (OCR)', 'Face detection', 'Object captions', 'Image captions']) await group(name).waitFor();
    expect(await group('Image captions').getByRole('radio').count()).toBe(3);

    expect(await group('Text recognition (OCR)').getByRole('radio', { name: /Coming Soon/ }).isDisabled()).toBe(true);
    const captioner = page.getByRole('radio', { name: OBJECT_CAPTIONER });
    expect(await captioner.isDisabled()).toBe(true);
    await group('Object captions').getByText('Needs Object detection first: choose it above.').waitFor();

    await page.getByRole('radio', { name: DETECTOR }).check();
    expect(await captioner.isDisabled()).toBe(false);
    await group('Object captions').getByText('Runs after Object detection.').waitFor();
    await captioner.check();
    // Taking the dependency back takes back what needs it.
    await group('Object detection').getByRole('radio', { name: 'None' }).check();
    expect(await captioner.isChecked()).toBe(false);
    expect(await captioner.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Start enrichment' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('starts an enriched copy, shows the API detail when the source is busy, and follows the copy to READY', async () => {
    fake.hold();
    await page.getByRole('radio', { name: BYO_NAME }).check();
    await page.getByRole('button', { name: 'Start enrichment' }).click();
    const made = page.getByRole('status').filter({ hasText: 'Enriched copy being made' });
    await made.waitFor();
    const href = await made.getByRole('link', { name: 'open the enriched copy' }).getAttribute('href');
    const copyId = href?.split('/').pop() ?? '';
    expect(href).toBe(`/datasets/${copyId}`);
    expect((await server.api(user.token, 'GET', `/api/v1/dataset/${copyId}`)).body.display_name).toBe('pets (enriched)');
    await page.getByText('READ ONLY', { exact: true }).waitFor();
    await screenshot(page, 'enrichment');
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);

    // The source is READ ONLY while the task runs: a second start is refused, and the page says why.
    await waitFor(async () => (fake.requests.length > 0 ? true : undefined), 30_000, 'the endpoint called');
    await page.reload();
    await page.getByRole('radio', { name: BYO_NAME }).check();
    await page.getByRole('button', { name: 'Start enrichment' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe("Operation 'enrich_dataset' is blocked while ENRICHMENT task is running");

    fake.release();
    await page.goto(href!);
    await page.getByRole('heading', { name: 'pets (enriched)' }).waitFor();
    await page.getByText('READY', { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'Enrichment' }).click();
    await page.getByText('Enriched', { exact: true }).waitFor();
    expect(await page.getByRole('list', { name: 'Applied models' }).textContent()).toBe(`Image captions: ${BYO_NAME}`);
    await page.getByRole('group', { name: 'Image captions' }).getByText(`Already applied: ${BYO_NAME}`).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 90_000);
});
