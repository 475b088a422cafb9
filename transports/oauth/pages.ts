import type { AuthorizeRequest } from "../../engine/services/oauth/OAuth.ts"
import { escapeHtml, page } from "../pages/html.ts"

export const HIDDEN = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource"
] as const

/** Who is approving: the signed-in person's current org and role there (docs/auth.md). */
export interface Approver {
  readonly orgId: string
  readonly orgName: string
  readonly memberId: string | null
  readonly role: string | null
  readonly email: string
  readonly csrf: string
}

export const consentPage = (request: AuthorizeRequest, params: URLSearchParams, who: Approver, alert?: string) => {
  const host = new URL(request.redirectUri).host
  const hidden = HIDDEN.map((n) =>
    params.get(n) === null ? "" : `<input type="hidden" name="${n}" value="${escapeHtml(params.get(n)!)}">`
  ).join("")
  return page(
    `Connect ${request.client.name}`,
    [
      alert === undefined ? "" : `<p role="alert">${escapeHtml(alert)}</p>`,
      `<p><strong>${escapeHtml(request.client.name)}</strong> asks to use this booking engine's MCP tools for `,
      `<strong>${escapeHtml(who.orgName)}</strong>.</p>`,
      `<dl><dt>App</dt><dd>${escapeHtml(request.client.name)}</dd><dt>Org</dt><dd>${escapeHtml(who.orgName)}</dd>`,
      `<dt>You</dt><dd>${escapeHtml(who.email)} (${escapeHtml(who.role ?? "not on the team")})</dd>`,
      `<dt>Sends you back to</dt><dd>${escapeHtml(host)}</dd></dl>`,
      `<p>If you approve, it may, as the org's owner would:</p><ul><li>read and change offerings, times and their hours</li>`,
      `<li>read, make, move and cancel bookings, with refunds</li><li>read and change customers, messages and the waitlist</li>`,
      `<li>read and change the org's settings, team, promo codes, gift cards and webhooks</li></ul>`,
      `<p class="note">You can disconnect it any time in the console (OAuth apps) or with DELETE /api/v1/oauth_apps/{id}. `,
      `To connect another of your orgs, switch org in the console first.</p>`,
      `<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="csrf_token" value="${escapeHtml(who.csrf)}">`,
      `<button type="submit" name="decision" value="approve">Approve</button> `,
      `<button type="submit" name="decision" value="deny" class="danger">Deny</button></form>`
    ].join("")
  )
}

export const signInPage = (why: string) =>
  page(
    "Sign in to connect this app",
    `<p role="alert">${escapeHtml(why)}</p><p><a href="/dashboard">Sign in to the console</a>, then open this page again from the app.</p>`
  )

export const errorPage = (message: string) =>
  page(
    "Cannot connect this app",
    `<p role="alert">${escapeHtml(message)}</p><p>Ask the app's maker to register it again, then start over from the app.</p>`
  )

/** redirect_uri with the answer in its query (codes and errors alike), state echoed. */
export const redirectTo = (redirectUri: string, state: string | undefined, params: Record<string, string>) => {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  if (state !== undefined) url.searchParams.set("state", state)
  return url.toString()
}

/**
 * OAuth 2.1 for MCP connectors as a plain node handler: RFC 9728 and RFC 8414 metadata, RFC 7591 registration, the
 * consent page (approved with an owner's secret key), the token endpoint (code with PKCE S256, rotating refresh
 * tokens) and RFC 7009 revocation. JSON answers in RFC 6749's error shape `{error, error_description}`.
 */
