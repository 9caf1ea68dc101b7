/**
 * A "bring your own model" image captioner: any endpoint speaking the OpenAI chat-completions API with
 * image inputs (OpenAI, vLLM, Ollama, LM Studio, llama.cpp server…). Each image goes as a data URL; the
 * answer's text is the caption. Calls are capped in number, time out, and retry what is worth retrying
 * (network errors, 408, 429, 5xx) with backoff.
 */
export interface OpenAiCaptionerOptions {
  /** Up to and including the version path, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  retries: number;
  concurrency: number;
  prompt?: string;
}

export const DEFAULT_CAPTION_PROMPT = 'Describe this image in one factual sentence of at most 25 words. Mention the main objects and any legible text.';

export class CaptionEndpointError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'CaptionEndpointError';
  }
}

export class OpenAiCaptioner {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: OpenAiCaptionerOptions) {}

  /** Where it sends images, without credentials: what a model listing may show. */
  get host(): string {
    return new URL(this.options.baseUrl).host;
  }

  async caption(image: Uint8Array, mime: string, signal?: AbortSignal): Promise<string> {
    await this.acquire(signal);
    try {
      return await this.withRetries(() => this.request(image, mime, signal), signal);
    } finally {
      this.release();
    }
  }

  private async request(image: Uint8Array, mime: string, signal?: AbortSignal): Promise<string> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = {
      model: this.options.model,
      max_tokens: 120,
      temperature: 0,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: this.options.prompt ?? DEFAULT_CAPTION_PROMPT },
            { type: 'image_url', image_url: { url: `data:${mime};base64,${Buffer.from(image).toString('base64')}` } },
          ],
        },
      ],
    };
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      const why = timeout.aborted ? `no answer within ${this.options.timeoutMs} ms` : (err as Error).message;
      throw new CaptionEndpointError(`caption endpoint ${this.host}: ${why}`, true);
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, 200);
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new CaptionEndpointError(`caption endpoint ${this.host} answered ${response.status}${text ? `: ${text}` : ''}`, retryable);
    }
    const json = (await response.json().catch(() => null)) as { choices?: Array<{ message?: { content?: unknown } }> } | null;
    const caption = contentText(json?.choices?.[0]?.message?.content).trim();
    if (!caption) throw new CaptionEndpointError(`caption endpoint ${this.host} answered without a caption`, false);
    return caption;
  }

  private async withRetries<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof CaptionEndpointError) || !err.retryable || attempt >= this.options.retries) throw err;
        await sleep(250 * 2 ** attempt, signal);
      }
    }
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    while (this.active >= this.options.concurrency) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active += 1;
  }

  private release(): void {
    this.active -= 1;
    this.waiting.shift()?.();
  }
}

/** The answer's text: a string, or the text parts of a content array. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join(' ');
  return '';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
