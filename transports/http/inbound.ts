import { createHmac } from "node:crypto"
import { Context, Runtime } from "effect"
import type { Messages } from "../../engine/services/messages/Messages.ts"
import { newText, tokenOf } from "../mail/reply.ts"
import { errorReply, json, type Reply } from "../shared/reply.ts"
import { safeEqual } from "../shared/safeEqual.ts"

export const INBOUND_PATH = "/inbound/email"

/** INBOUND_EMAIL_SECRET: the shared secret that signs posted mail; without it the route is off. */
export class InboundEmailSecret extends Context.Reference<InboundEmailSecret>()("InboundEmailSecret", {
  defaultValue: (): { readonly secret: string | undefined } => ({ secret: undefined })
}) {}

/**
 * POST /inbound/email, for mail providers that post parsed mail: `{to, from, text}` (a bounce: `{to, bounce: true,
 * reason}`; a spam complaint: `{to, complaint: true, reason}`), signed with INBOUND_EMAIL_SECRET as `X-Inbound-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 * It feeds the same path as the SMTP listener: only the new text of a reply from the guest's own address is kept.
 */
export const inboundEmail =
  (messages: Messages, secret: string | undefined, runtime: Runtime.Runtime<never>) =>
  async (signature: string | undefined, body: string | undefined): Promise<Reply> => {
    if (secret === undefined)
      return errorReply(404, "not_found", "inbound mail over HTTP is off: set INBOUND_EMAIL_SECRET")
    const expected = `sha256=${createHmac("sha256", secret)
      .update(body ?? "")
      .digest("hex")}`
    if (signature === undefined || !safeEqual(signature, expected))
      return errorReply(401, "bad_signature", "X-Inbound-Signature does not match the body")
    let mail: { to?: unknown; from?: unknown; text?: unknown; bounce?: unknown; complaint?: unknown; reason?: unknown }
    try {
      mail = JSON.parse(body ?? "")
    } catch {
      return errorReply(400, "invalid_json", "the body is not JSON")
    }
    const token = typeof mail.to === "string" ? tokenOf(mail.to) : undefined
    if (token === undefined) return errorReply(400, "invalid_to", "to: a reply address reply+<token>@<domain>")
    const run = Runtime.runPromise(runtime)
    if (mail.complaint === true) {
      const marked = await run(
        messages.complaint({ token, reason: typeof mail.reason === "string" ? mail.reason : "abuse" })
      )
      return json(200, { outcome: marked ? "complained" : "no_message" })
    }
    if (mail.bounce === true) {
      const marked = await run(
        messages.bounce({ token, reason: typeof mail.reason === "string" ? mail.reason : "bounced" })
      )
      return json(200, { outcome: marked ? "bounced" : "no_message" })
    }
    if (typeof mail.from !== "string" || typeof mail.text !== "string")
      return errorReply(400, "invalid_mail", "from and text are required")
    const text = newText(mail.text)
    if (text === "") return json(200, { outcome: "empty" })
    const outcome = await run(messages.receive({ token, from: mail.from, text }))
    return json(200, { outcome })
  }
