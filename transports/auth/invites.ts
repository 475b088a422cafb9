import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect } from "effect"
import { InviteSignIn } from "../../engine/services/auth/Invites.ts"
import { escapeHtml, HTML, page, readForm, send } from "../pages/html.ts"
import { readCookie } from "./cookies.ts"
import { sameOrigin } from "./csrf.ts"
import type { Shared } from "./routes.ts"

export type InviteRuntime = InviteSignIn

const INVITE = /^\/auth\/v1\/invites\/(inv_[A-Za-z0-9_-]{1,100})$/

const refused = (res: ServerResponse) =>
  send(
    res,
    400,
    HTML,
    page(
      "This invite does not work",
      `<p role="alert">The invite was used already, was withdrawn, or has expired (invites work for 7 days). Ask an owner of the team for a new one.</p><p><a href="/dashboard">Go to sign in</a></p>`
    )
  )

/**
 * GET /auth/v1/invites/<token>: a page naming the org and the role with one button; its POST joins the team, signs
 * the person in and goes to /dashboard. The GET changes nothing, so a mail scanner that opens links cannot use up an
 * invite.
 */
export const invitePages =
  (shared: Pick<Shared, "run" | "names" | "sessionCookie" | "publicUrl">) =>
  async (req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<boolean> => {
    const found = INVITE.exec(path)
    if (found === null) return false
    const token = found[1]
    if (method === "GET") {
      await shared.run(
        res,
        Effect.flatMap(InviteSignIn, (i) => i.peek(token)),
        (invite) =>
          invite === undefined
            ? refused(res)
            : send(
                res,
                200,
                HTML,
                page(
                  `Join ${invite.org_name}`,
                  `<p>You are invited to the team of <strong>${escapeHtml(invite.org_name)}</strong> as <strong>${escapeHtml(invite.role)}</strong> (${escapeHtml(invite.email)}).</p>` +
                    `<form method="post"><label for="name">Your name (optional)</label><input id="name" name="name" autocomplete="name" maxlength="200">` +
                    `<button type="submit">Join and sign in</button></form>`
                )
              )
      )
      return true
    }
    if (method !== "POST") return false
    if (!sameOrigin(req.headers, shared.publicUrl)) {
      send(
        res,
        403,
        HTML,
        page("Refused", `<p role="alert">Open the invite from its link and press the button there.</p>`)
      )
      return true
    }
    const form = await readForm(req)
    const name = form.ok ? (form.form.get("name") ?? "").trim().slice(0, 200) : ""
    await shared.run(
      res,
      Effect.flatMap(InviteSignIn, (i) =>
        i.accept(
          token,
          name === "" ? undefined : name,
          req.headers["user-agent"],
          readCookie(req, shared.names.session)
        )
      ).pipe(
        Effect.catchTags({ NotFound: () => Effect.succeed(undefined), Conflict: () => Effect.succeed(undefined) })
      ),
      (session) =>
        session === undefined
          ? refused(res)
          : send(res, 303, "text/plain; charset=utf-8", "", {
              location: "/dashboard",
              "set-cookie": shared.sessionCookie(session)
            })
    )
    return true
  }
