import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** An error answer of the API, carrying its `detail` so every page can show it as the API said it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** The one typed client of the public API: same origin, signed in by the session cookie. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

async function errorOf(response: Response, body: unknown): Promise<ApiError> {
  const detail =
    body && typeof body === 'object' && 'detail' in body && typeof (body as { detail: unknown }).detail === 'string'
      ? (body as { detail: string }).detail
      : `${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, detail);
}

/** The data of an openapi-fetch answer, or its error thrown as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw await errorOf(response, error);
  return data as T;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Posts a multipart form with upload progress (fetch reports none for request bodies); resolves with the parsed JSON
 * answer (or null for an empty one) and rejects with an ApiError carrying the API's detail.
 */
export function postForm(url: string, form: FormData, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.total });
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else {
        const detail = body && typeof body === 'object' && 'detail' in body ? String((body as { detail: unknown }).detail) : `${xhr.status} ${xhr.statusText}`;
        reject(new ApiError(xhr.status, detail));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'The connection to the server was lost'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
