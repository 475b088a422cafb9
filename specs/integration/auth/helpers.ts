import { expect } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"

/**
 * A browser as far as sign-in goes: a cookie jar, no redirects followed, and Origin set to PUBLIC_URL's on every
 * request that changes something (as a page of the console would send), unless the test says otherwise.
 */
export const browser = (app: TestApp, publicUrl = "http://127.0.0.1") => {
  const jar = new Map<string, string>()
  const origin = new URL(publicUrl).origin
  let csrf: string | undefined
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<{ status: number; body: any; headers: Headers; text: string; cookies: Array<string> }> => {
    const h: Record<string, string> = {}
    if (method !== "GET" && method !== "HEAD") h.origin = origin
    if (csrf !== undefined) h["x-csrf-token"] = csrf
    if (jar.size > 0) h.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
    if (body !== undefined)
      h["content-type"] = typeof body === "string" ? "application/x-www-form-urlencoded" : "application/json"
    for (const [k, v] of Object.entries(headers)) {
      if (v === "") delete h[k]
      else h[k] = v
    }
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: h,
      redirect: "manual",
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    })
    const cookies = res.headers.getSetCookie()
    for (const c of cookies) {
      const [pair, ...attrs] = c.split(";")
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]
      if (attrs.some((a) => a.trim() === "Max-Age=0")) jar.delete(name)
      else jar.set(name, value)
    }
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {
      /* HTML */
    }
    return { status: res.status, body: parsed, headers: res.headers, text, cookies }
  }
  const self = {
    jar,
    request,
    /** GET /auth/v1/session, remembering its csrf_token for later requests. */
    session: async () => {
      const r = await request("GET", "/auth/v1/session")
      if (r.status === 200) csrf = r.body.csrf_token
      return r
    },
    forgetCsrf: () => (csrf = undefined),
    setCsrf: (t: string | undefined) => (csrf = t),
    /** Asks for a link and follows it from the mail: the session cookie is set, the CSRF token known. */
    signIn: async (email: string) => {
      expect((await request("POST", "/auth/v1/links", { email })).status).toBe(202)
      const link = await lastLink(app, email)
      const r = await request("GET", link)
      expect(r.status).toBe(303)
      const s = await self.session()
      expect(s.status).toBe(200)
      return s.body
    },
    /** /api/v1 with the session (and its CSRF token), as the console calls it. */
    api: (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      request(method, `/api/v1${path}`, body, headers)
  }
  return self
}

/** The mails of one kind to one address, newest last. */
export const mailsTo = (app: TestApp, email: string, kind = "auth.sign_in_link") =>
  sql(
    app,
    (s) =>
      s<{ body: string; org_id: string }>`select body, org_id from mail_outbox where lower(to_address) = lower(${email})
        and kind = ${kind} order by created_at, id`
  )

const taken = new Set<string>()
/**
 * The path of the sign-in link mailed to an address that no test took yet (the test clock stands still, so mails
 * made in one test have the same created_at: the one not seen before is the newest).
 */
export const lastLink = async (app: TestApp, email: string) => {
  const fresh = (await mailsTo(app, email)).filter((m) => !taken.has(m.body))
  expect(fresh).toHaveLength(1)
  taken.add(fresh[0].body)
  return new URL(/(http\S+\/auth\/v1\/links\/\S+)/.exec(fresh[0].body)![1]).pathname
}

/** An org with an owner and a staff member (members by the admin API), and the org's own (owner) key. */
export const teamOrg = async (app: TestApp, n: string | number) => {
  const org = await app.newOrg({ timezone: "UTC", plan: "scale" })
  const owner = `owner${n}@example.com`
  const staff = `staff${n}@example.com`
  for (const [email, role] of [
    [owner, "owner"],
    [staff, "staff"]
  ]) {
    const r = await app.admin("POST", `/orgs/${org.id}/members`, { email, role })
    expect(r.status).toBe(201)
  }
  return { ...org, owner, staff }
}
