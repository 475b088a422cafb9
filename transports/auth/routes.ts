import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, type Runtime } from "effect"
import { Auth, type Signed, sessionBody } from "../../engine/services/auth/Auth.ts"
import { ABSOLUTE_DAYS, LINK_MINUTES, secret } from "../../engine/services/auth/tokens.ts"
import { clearCookie, cookieNames, readCookie, setCookie } from "./cookies.ts"
import { csrfRefusal, sameOrigin } from "./csrf.ts"
import { invitePages } from "./invites.ts"
import { meRoute } from "./me.ts"
import { passkeyRoutes } from "./passkeys.ts"
import { fail, json, readJson, runner } from "./reply.ts"
import type { AuthLimits, AuthRuntime, Html } from "./shared.ts"

/** Everything under /auth/v1: sign-in links, sessions, passkeys, invites (docs/auth.md). */
export const AUTH_PATH = /^\/auth\/v1(\/|$)/

const LINK = /^\/auth\/v1\/links\/([A-Za-z0-9_-]{1,200})$/
const ONE_SESSION = /^\/auth\/v1\/sessions\/([0-9a-f-]{36})$/

/** The small page a link that does not work shows, with the way back. */
const linkRefused = (html: Html, res: ServerResponse, title: string, why: string) =>
  html.send(
    res,
    400,
    html.type,
    html.page(
      title,
      `<p role="alert">${html.escapeHtml(why)}</p><p><a href="/dashboard">Back to sign in</a> and ask for a new link.</p>`
    )
  )

export const authRoutes = (
  runtime: Runtime.Runtime<AuthRuntime>,
  publicUrl: string,
  limits: AuthLimits,
  html: Html
) => {
  const { send, page, escapeHtml } = html
  const HTML = html.type
  const names = cookieNames(publicUrl)
  const run = runner(runtime)
  const sessionCookie = (token: string) => setCookie(names, names.session, token, ABSOLUTE_DAYS * 86_400)
  const tooMany = (res: ServerResponse, retryAfter: number) =>
    fail(res, 429, "rate_limited", `too many sign-in attempts; try again in ${retryAfter} s`, {
      "retry-after": String(retryAfter)
    })
  /** The live session of the request, or a 401 answered; state-changing requests pass the CSRF check first. */
  const signedIn = async (req: IncomingMessage, res: ServerResponse): Promise<Signed | undefined> => {
    const token = readCookie(req, names.session)
    if (token === undefined) return void fail(res, 401, "unauthorized", "sign in first")
    let found: Signed | undefined
    await run(
      res,
      Effect.flatMap(Auth, (a) => a.resolve(token)),
      (s) => (found = s)
    )
    if (res.headersSent) return undefined
    if (found === undefined) return void fail(res, 401, "unauthorized", "the session has ended: sign in again")
    const refusal = csrfRefusal(req.method ?? "GET", req.headers, publicUrl, found.session.csrf_token)
    if (refusal !== undefined) return void fail(res, 403, "csrf_failed", refusal)
    return found
  }
  const answerSession = (res: ServerResponse, token: string) =>
    run(
      res,
      Effect.flatMap(Auth, (a) => a.resolve(token)),
      (s) => (s === undefined ? fail(res, 401, "unauthorized", "sign in first") : json(res, 200, sessionBody(s)))
    )
  const resolve = (token: string) => Effect.flatMap(Auth, (a) => a.resolve(token))
  const shared = { names, run, signedIn, sessionCookie, tooMany, limits, publicUrl, resolve, html }
  const passkeys = passkeyRoutes(shared)
  const invites = invitePages(shared)
  const me = meRoute(shared)

  /** POST /auth/v1/links: always 202 {}, a mail only when the email is on a team; the browser keeps the nonce. */
  const requestLink = async (req: IncomingMessage, res: ServerResponse) => {
    if (!sameOrigin(req.headers, publicUrl))
      return fail(res, 403, "csrf_failed", "ask for a sign-in link from this site's own page")
    const byAddress = await limits.address(req)
    if (!byAddress.ok) return tooMany(res, byAddress.retryAfter)
    const read = await readJson(req)
    if (!read.ok) return fail(res, read.status, read.code, read.message)
    const email = read.body.email
    if (typeof email !== "string" || email.length > 254)
      return fail(res, 400, "invalid_email", "email: an address like name@example.com")
    const byEmail = await limits.email(email.trim().toLowerCase())
    if (!byEmail.ok) return tooMany(res, byEmail.retryAfter)
    const nonce = readCookie(req, names.signin) ?? secret()
    await run(
      res,
      Effect.flatMap(Auth, (a) => a.requestLink(email, nonce)),
      () => json(res, 202, {}, { "set-cookie": setCookie(names, names.signin, nonce, LINK_MINUTES * 60) })
    )
  }

  const signedInTo = (res: ServerResponse, session: string) =>
    send(res, 303, "text/plain; charset=utf-8", "", {
      location: "/dashboard",
      "set-cookie": [sessionCookie(session), clearCookie(names, names.signin)] as never
    })
  const usedUp = (res: ServerResponse) =>
    linkRefused(
      html,
      res,
      "This sign-in link does not work",
      "The link was used already, has expired (links work for 15 minutes), or was opened in another browser than the one where you asked for it."
    )

  /**
   * GET /auth/v1/links/<token>: a session in the browser that asked, or a page saying why not. A ticket (a link not
   * bound to a browser: a new owner's welcome, the demo owner's) shows a page whose button (POST) signs in, so a mail
   * scanner opening it uses nothing up.
   */
  const redeem = async (req: IncomingMessage, res: ServerResponse, token: string) => {
    // Redeeming counts against the sign-in limit per address, as asking does: a token cannot be guessed at speed.
    const byAddress = await limits.address(req)
    if (!byAddress.ok) return tooMany(res, byAddress.retryAfter)
    return run(
      res,
      Effect.flatMap(Auth, (a) =>
        Effect.flatMap(
          a.redeemLink(token, readCookie(req, names.signin), req.headers["user-agent"], readCookie(req, names.session)),
          (session): Effect.Effect<{ session: string } | { email: string | undefined }> =>
            session === undefined
              ? Effect.map(a.peekTicket(token), (email) => ({ email }))
              : Effect.succeed({ session })
        )
      ),
      (r) =>
        "session" in r
          ? signedInTo(res, r.session)
          : r.email === undefined
            ? usedUp(res)
            : send(
                res,
                200,
                HTML,
                page(
                  "Sign in",
                  `<p>Sign in to the console as <strong>${escapeHtml(r.email)}</strong>.</p><form method="post"><button type="submit">Sign in</button></form>`
                )
              )
    )
  }
  const redeemTicket = async (req: IncomingMessage, res: ServerResponse, token: string) => {
    if (!sameOrigin(req.headers, publicUrl))
      return send(res, 403, HTML, page("Refused", `<p role="alert">Open the link and press its button.</p>`))
    const byAddress = await limits.address(req)
    if (!byAddress.ok) return tooMany(res, byAddress.retryAfter)
    await run(
      res,
      Effect.flatMap(Auth, (a) => a.redeemTicket(token, req.headers["user-agent"], readCookie(req, names.session))),
      (session) => (session === undefined ? usedUp(res) : signedInTo(res, session))
    )
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0]
    const method = req.method ?? "GET"
    if (path === "/auth/v1/links" && method === "POST") return requestLink(req, res)
    const link = LINK.exec(path)
    if (link !== null && method === "GET") return redeem(req, res, link[1])
    if (link !== null && method === "POST") return redeemTicket(req, res, link[1])
    if (path === "/auth/v1/session") {
      if (method === "GET") {
        const token = readCookie(req, names.session)
        return token === undefined ? fail(res, 401, "unauthorized", "sign in first") : answerSession(res, token)
      }
      if (method === "DELETE") {
        const s = await signedIn(req, res)
        if (s === undefined) return
        return run(
          res,
          Effect.flatMap(Auth, (a) => a.signOut(s)),
          () => json(res, 204, undefined, { "set-cookie": clearCookie(names, names.session) })
        )
      }
    }
    if (path === "/auth/v1/session/org" && method === "POST") {
      const s = await signedIn(req, res)
      if (s === undefined) return
      const read = await readJson(req)
      if (!read.ok) return fail(res, read.status, read.code, read.message)
      const orgId = read.body.org_id
      if (typeof orgId !== "string") return fail(res, 400, "invalid_org_id", "org_id: the id of one of your orgs")
      return run(
        res,
        Effect.flatMap(Auth, (a) => a.switchOrg(s, orgId)),
        () => answerSession(res, readCookie(req, names.session)!)
      )
    }
    if (path === "/auth/v1/sessions" && (method === "GET" || method === "DELETE")) {
      const s = await signedIn(req, res)
      if (s === undefined) return
      if (method === "GET")
        return run(
          res,
          Effect.flatMap(Auth, (a) => a.list(s)),
          (data) => json(res, 200, { data })
        )
      return run(
        res,
        Effect.flatMap(Auth, (a) => a.signOutOthers(s)),
        () => json(res, 204, undefined)
      )
    }
    const one = ONE_SESSION.exec(path)
    if (one !== null && method === "DELETE") {
      const s = await signedIn(req, res)
      if (s === undefined) return
      return run(
        res,
        Effect.flatMap(Auth, (a) => a.signOutOne(s, one[1])),
        (ended) =>
          ended
            ? json(
                res,
                204,
                undefined,
                one[1] === s.session.id ? { "set-cookie": clearCookie(names, names.session) } : {}
              )
            : fail(res, 404, "not_found", "session not found")
      )
    }
    if (await passkeys(req, res, path, method)) return
    if (await me(req, res, path, method)) return
    if (await invites(req, res, path, method)) return
    fail(res, 404, "not_found", `no route for ${method} ${path.slice(0, 100)}`)
  }
}
