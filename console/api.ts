/**
 * The console's one way to the server: same-origin fetch with the session cookie. The CSRF token from
 * GET /auth/v1/session is kept in memory only (never in storage) and sent on every request that changes something.
 */
let csrf: string | undefined

export const setCsrf = (token: string | undefined) => {
  csrf = token
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The field at fault, as its path in the body (`hours[1].start_time`), when the API names it. */
    readonly param?: string
  ) {
    super(message)
  }
}

/** Called when the server answers 401: the session ended (signed out elsewhere, expired, removed from the team). */
let onSignedOut: () => void = () => undefined
export const whenSignedOut = (f: () => void) => {
  onSignedOut = f
}

/**
 * Called when the server answers 403 to this person: their role may have changed, or they may have left the team, in
 * another tab or by another owner's hand. The console reads the session again and follows it.
 */
let onForbidden: () => void = () => undefined
export const whenForbidden = (f: () => void) => {
  onForbidden = f
}

export const request = async <T>(
  method: string,
  path: string,
  body?: unknown,
  type = "application/json"
): Promise<T> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = type
  if (method !== "GET" && csrf !== undefined) headers["x-csrf-token"] = csrf
  const res = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body)
  })
  const text = await res.text()
  const json = text === "" ? undefined : safeJson(text)
  if (!res.ok) {
    const error = (json as { error?: { code?: string; message?: string; param?: string } } | undefined)?.error
    if (res.status === 401 && !path.startsWith("/auth/v1/session")) onSignedOut()
    if (res.status === 403 && path.startsWith("/api/v1/")) onForbidden()
    throw new ApiError(
      res.status,
      error?.code ?? "error",
      error?.message ?? `${res.status} ${res.statusText}`,
      typeof error?.param === "string" ? error.param : undefined
    )
  }
  return json as T
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The REST API, /api/v1, as this person in the org of their session. */
export const api = {
  get: <T>(path: string, query?: Record<string, string | undefined>) => request<T>("GET", `/api/v1${path}${qs(query)}`),
  post: <T>(path: string, body: unknown = {}) => request<T>("POST", `/api/v1${path}`, body),
  put: <T>(path: string, body: unknown) => request<T>("PUT", `/api/v1${path}`, body),
  patch: <T>(path: string, body: unknown) => request<T>("PATCH", `/api/v1${path}`, body),
  del: <T>(path: string, query?: Record<string, string | undefined>) =>
    request<T>("DELETE", `/api/v1${path}${qs(query)}`)
}

export const qs = (query?: Record<string, string | undefined>) => {
  if (query === undefined) return ""
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") p.set(k, v)
  const s = p.toString()
  return s === "" ? "" : `?${s}`
}

/** A failure already said in words for the person (a passkey the browser refused, say). */
export class Said extends Error {}

/** A message a person can act on, from whatever went wrong. */
export const describe = (e: unknown) =>
  e instanceof ApiError
    ? e.status === 403
      ? "Only an owner can do that."
      : e.message
    : e instanceof Said
      ? e.message
      : "Could not reach the server. Check your connection and try again."

/** Every page of a cursor-paged list (up to `pages` pages of 500). */
export const all = async <T>(
  path: string,
  query: Record<string, string | undefined> = {},
  pages = 10
): Promise<T[]> => {
  const out: T[] = []
  let after: string | undefined
  for (let i = 0; i < pages; i++) {
    const page = await api.get<{ data: T[]; next_after?: string | number | null }>(path, {
      ...query,
      limit: "500",
      after
    })
    out.push(...page.data)
    if (page.next_after === null || page.next_after === undefined || page.data.length < 500) break
    after = String(page.next_after)
  }
  return out
}
