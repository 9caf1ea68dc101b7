import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CaptionEndpointError, OpenAiCaptioner } from '../../src/adapters/models/openai-captioner.js';
import { type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';

let fake: FakeOpenAi;
const image = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const captioner = (options: Partial<ConstructorParameters<typeof OpenAiCaptioner>[0]> = {}) =>
  new OpenAiCaptioner({ baseUrl: fake.baseUrl, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 2, concurrency: 2, ...options });

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
beforeEach(() => {
  fake.answerWith(200);
  fake.failNext(0, 500);
  fake.delay(0);
  fake.requests.length = 0;
  fake.maxInFlight = 0;
});
afterAll(() => fake.close());

describe('the OpenAI-compatible captioner', () => {
  it('returns the answer as the caption', async () => {
    expect(await captioner().caption(image, 'image/jpeg')).toBe('A photo of a zebracorn, 7 bytes.');
    expect(fake.requests[0]!.body.messages[0].content[1].image_url.url).toBe(`data:image/jpeg;base64,${Buffer.from(image).toString('base64')}`);
  });

  it('retries 5xx and 429 with backoff, and gives up after its retries', async () => {
    fake.failNext(2, 503);
    expect(await captioner().caption(image, 'image/jpeg')).toMatch(/zebracorn/);
    expect(fake.requests).toHaveLength(3);
    fake.failNext(5, 429);
    await expect(captioner({ retries: 1 }).caption(image, 'image/jpeg')).rejects.toThrow(/answered 429/);
  });

  it('does not retry a 4xx that will not change', async () => {
    fake.failNext(1, 400);
    await expect(captioner().caption(image, 'image/jpeg')).rejects.toThrow(CaptionEndpointError);
    expect(fake.requests).toHaveLength(1);
  });

  it('times out a call that does not answer', async () => {
    fake.delay(1500);
    await expect(captioner({ timeoutMs: 200, retries: 0 }).caption(image, 'image/jpeg')).rejects.toThrow(/no answer within 200 ms/);
  });

  it('keeps at most `concurrency` calls in flight', async () => {
    fake.delay(100);
    const c = captioner({ concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, () => c.caption(image, 'image/png')));
    expect(fake.requests).toHaveLength(6);
    expect(fake.maxInFlight).toBe(2);
  });
});
