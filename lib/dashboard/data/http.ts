/** Browser-side calls: the dashboard talks only to its own route handlers (same origin). */

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public body?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Parses an answer, turning the API's `{error:true, message}` (or a non-2xx) into an ApiError. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const b = body as { error?: unknown; message?: unknown; status?: unknown } | undefined;
  if (!res.ok || (b && b.error === true)) {
    const status = typeof b?.status === "number" ? b.status : res.status;
    const message =
      typeof b?.message === "string" && b.message ? b.message : `Request failed (${res.status} ${res.statusText})`;
    throw new ApiError(status, message, body);
  }
  return body as T;
}

/** Calls an API path (/v1/...) through the dashboard's proxy. */
export async function api<T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
  return local<T>(`/api/proxy${path}`, init);
}

/** Calls one of the dashboard's own route handlers (/api/...). */
export async function local<T>(url: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
  const res = await fetch(url, {
    method: init?.method ?? (init?.body === undefined ? "GET" : "POST"),
    headers: init?.body === undefined ? { accept: "application/json" } : { "content-type": "application/json", accept: "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init?.signal,
    credentials: "same-origin",
  });
  if (res.status === 401 && typeof window !== "undefined") {
    // Back to this page once signed in again.
    window.location.href = `/sign-in?expired=1&next=${encodeURIComponent(window.location.pathname + window.location.search)}`;
  }
  return readJson<T>(res);
}
