import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Runtime } from "effect"
import { Texter } from "../../engine/ports/Texter.ts"
import { toE164 } from "../../engine/schema/phone.ts"
import { badText } from "../../engine/schema/text.ts"
import { Inbox } from "../../engine/services/messages/Inbox.ts"
import { TEXT_INBOUND_PATH, TEXT_STATUS_PATH, Texts } from "../../engine/services/texts/Texts.ts"
import { type BodyRule, readText } from "../shared/body.ts"

/** Twilio's two webhooks: texts guests send, and reports on the texts the engine sent. */
export const TEXTS_PATH = /^\/texts\/twilio\/(inbound|status)$/

const MAX_BODY = 64 * 1024

const json = (res: ServerResponse, status: number, code: string, message: string) => {
  const body = JSON.stringify({ error: { code, message } })
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const xml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!)

/** TwiML: the answer to a text (STOP, START, HELP are answered), or nothing. */
const twiml = (res: ServerResponse, reply: string | undefined) => {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Response>${reply === undefined ? "" : `<Message>${xml(reply)}</Message>`}</Response>`
  res.writeHead(200, { "content-type": "text/xml", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

/** Twilio posts forms; read through the one body reader (transports/shared/body.ts). */
const FORM: BodyRule = { limit: MAX_BODY, what: "the form" }
const readForm = (req: IncomingMessage) =>
  readText(req, FORM).then((read) =>
    read.ok ? { ok: true as const, value: new URLSearchParams(read.value ?? "") } : read
  )

/**
 * POST /texts/twilio/inbound (Twilio's "A message comes in" webhook) and /texts/twilio/status (StatusCallback). Each
 * is verified with the SDK's own validator: X-Twilio-Signature over PUBLIC_URL plus the path, and the form's fields.
 * An unsigned or wrongly signed request is 403 and changes nothing.
 */
export const textRoutes = (runtime: Runtime.Runtime<Inbox | Texts | Texter>, publicUrl: string) => {
  const run = Runtime.runPromise(runtime)
  const texter = Runtime.runSync(runtime)(Texter)
  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]
    if (req.method !== "POST") {
      res.setHeader("allow", "POST")
      return json(res, 405, "method_not_allowed", "POST only")
    }
    if (texter.verify === undefined)
      return json(res, 404, "not_found", "texts come in through Twilio only: set TWILIO_ACCOUNT_SID and its settings")
    const read = await readForm(req)
    if (!read.ok) {
      if (read.refusal.status === 413) res.setHeader("connection", "close")
      return json(res, read.refusal.status, read.refusal.code, read.refusal.message)
    }
    const form = read.value
    const signature = req.headers["x-twilio-signature"]
    const params = Object.fromEntries(form)
    if (typeof signature !== "string" || !texter.verify(signature, `${publicUrl}${req.url}`, params))
      return json(res, 403, "bad_signature", "X-Twilio-Signature does not match this request")
    if (path === TEXT_STATUS_PATH) {
      if (!params.MessageSid || !params.MessageStatus)
        return json(res, 400, "invalid_body", "MessageSid and MessageStatus are required")
      await run(
        Effect.flatMap(Texts, (t) =>
          t.report({ providerId: params.MessageSid, status: params.MessageStatus, error: params.ErrorCode })
        )
      )
      res.writeHead(204)
      return res.end()
    }
    if (path !== TEXT_INBOUND_PATH) return json(res, 404, "not_found", "no such route")
    if (!params.From || params.Body === undefined) return json(res, 400, "invalid_body", "From and Body are required")
    const problem = badText(params.Body)
    if (problem !== undefined) return json(res, 400, "invalid_body", `Body: ${problem}`)
    // A sender that is no phone number (a short code, a name) is no guest's.
    const from = toE164(params.From)
    if (from === undefined || params.Body.trim() === "") return twiml(res, undefined)
    const got = await run(
      Effect.flatMap(Inbox, (i) => i.text({ from, body: params.Body, messageSid: params.MessageSid || undefined }))
    )
    return twiml(res, got.reply)
  }
}
