/** The public booking surface (/api/v1/public) with a publishable key. */
export interface Org {
  name: string
  timezone: string
  currency: string
  currency_minor_units: number
  locale: string
  waiver_text: string | null
  waiver_version: number
  today: string
}
export interface Question {
  id: string
  label: string
  type: "text" | "yes_no" | "choice"
  options?: string[]
  required: boolean
}
export interface Offering {
  id: string
  name: string
  description: string
  kind: "class" | "appointment" | "rental"
  price_cents: number
  duration_minutes: number
  max_per_booking: number
  max_periods: number
  waiver_required: boolean
  waitlist_enabled: boolean
  questions: Question[]
  location: string
  course: boolean
}
export interface Slot {
  starts_at: string
  ends_at: string
  capacity: number
  remaining: number
  session_id?: string
  series_id?: string
}
export interface Quote {
  price_cents: number
  discount_cents: number
  total_cents: number
  gift_cents: number
  /** What booking takes now (a deposit, or all that is left) */
  due_cents: number
  /** A deposit's rest, due at the start */
  due_at_start_cents: number
  currency: string
}
export interface Booked {
  reference: string
  status: string
  starts_at: string
  total_cents: number
  checkout_url: string | null
  mailed_to: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

export const client = (base: string, key: string) => {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api/v1/public${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const json = await res.json().catch(() => ({}))
    if (!res.ok)
      throw new ApiError(
        res.status,
        json?.error?.code ?? "error",
        json?.error?.message ?? `the booking service answered ${res.status}`
      )
    return json as T
  }
  return {
    org: () => call<Org>("GET", "/org"),
    offerings: () => call<{ data: Offering[] }>("GET", "/offerings").then((r) => r.data),
    offering: (id: string) => call<Offering>("GET", `/offerings/${encodeURIComponent(id)}`),
    times: (id: string, from: string, to: string) =>
      call<{ timezone: string; data: Slot[] }>(
        "GET",
        `/offerings/${encodeURIComponent(id)}/availability?from=${from}&to=${to}`
      ),
    quote: (body: Record<string, unknown>) => call<Quote>("POST", "/quote", body),
    book: (body: Record<string, unknown>) => call<Booked>("POST", "/bookings", body),
    wait: (body: Record<string, unknown>) => call<{ starts_at: string; places: number }>("POST", "/waitlist", body),
    ask: (body: { name: string; email: string; question: string }) =>
      call<{ id: string; created_at: string }>("POST", "/questions", body)
  }
}
export type Client = ReturnType<typeof client>
