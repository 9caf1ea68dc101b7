/** An error answer of the API (or a failed wait): `message` and `detail` are the server's detail, verbatim. */
export class LoupeError extends Error {
  override readonly name: string = 'LoupeError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(detail);
  }
}

/** The LoupeError for a non-2xx response; the body is read here, so the caller must not have read it. */
export async function errorFromResponse(response: Response, method: string, path: string): Promise<LoupeError> {
  const text = await response.text().catch(() => '');
  return errorFromBody(response, method, path, text);
}

export function errorFromBody(response: Response, method: string, path: string, body: unknown): LoupeError {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = body;
    }
  }
  const detail =
    parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string'
      ? (parsed as { detail: string }).detail
      : `${response.status} ${response.statusText}`.trim();
  return new LoupeError(response.status, detail, method, path);
}
