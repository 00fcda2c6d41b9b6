/**
 * Calls to the review API with the token from sessionStorage. The token
 * stays in this tab: never in the address, a cookie or the page.
 */

const TOKEN_KEY = 'cosci-review-token';

/** The API refused the token, or there is none: the page goes back to the sign-in form. */
export class SignedOut extends Error {
  override name = 'SignedOut';
}

/** A refusal with the API's stable code. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

export function authHeaders(): Record<string, string> {
  const value = token.get();
  if (!value) throw new SignedOut('Sign in with the review token.');
  return { authorization: `Bearer ${value}` };
}

/** One API call; resolves to the JSON answer, rejects with SignedOut or ApiError. */
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders(), accept: 'application/json' };
  const init: RequestInit = { method, headers, cache: 'no-store', credentials: 'omit' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401) {
    token.clear();
    throw new SignedOut('The token was refused. Sign in again.');
  }
  if (!response.ok) {
    const problem = (data as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      problem?.code ?? `HTTP_${response.status}`,
      problem?.message ?? 'the request failed',
      response.status,
    );
  }
  return data as T;
}

export const itemPath = (id: string): string => `api/items/${encodeURIComponent(id)}`;
