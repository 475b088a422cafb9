import { sql, type TestApp } from "../../support/app.ts"

/** The guest's handle, as their email carries it (read from the mail the engine kept for the address). */
export const handleFromMail = async (app: TestApp, email: string) => {
  const res = await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)
  for (const m of res.body.data as Array<{ links: string[] }>) {
    const link = m.links.find((l) => /\/b\/[A-Za-z0-9_-]+$/.test(l))
    if (link) return link.slice(link.lastIndexOf("/") + 1)
  }
  throw new Error(`no guest page link in the mail to ${email}: ${JSON.stringify(res.body)}`)
}

export const handleOf = async (app: TestApp, bookingId: string) =>
  (await sql(app, (s) => s<{ handle: string }>`select handle from bookings where id = ${bookingId}`))[0].handle

/** The guest page's API for one handle. */
export const guestApi = (app: TestApp, handle: string) => ({
  get: () => app.call(null, "GET", `/api/v1/guest/${handle}`),
  cancel: () => app.call(null, "POST", `/api/v1/guest/${handle}/cancel`),
  move: (body: unknown) => app.call(null, "POST", `/api/v1/guest/${handle}/move`, body),
  times: (query = "") => app.call(null, "GET", `/api/v1/guest/${handle}/availability${query}`),
  messages: () => app.call(null, "GET", `/api/v1/guest/${handle}/messages`),
  write: (body: string) => app.call(null, "POST", `/api/v1/guest/${handle}/messages`, { body })
})
