import { ApiError } from '../api/client';

/** An error as the user should read it: the API's own `detail` where there is one. */
export function ErrorMessage({ error }: { error: unknown }) {
  const text = error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="error">
      {text}
    </p>
  );
}
