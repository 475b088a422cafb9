import { createHmac, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type { AppConfig } from "../../../app/config.ts"
import { startApp } from "../../support/app.ts"

export const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`
export const AUTH_TOKEN = "twilio-test-auth-token-0123456789"

export interface TwilioCall {
  readonly method: string
  readonly path: string
  readonly form: Record<string, string>
  readonly authorization: string | undefined
  readonly contentType: string | undefined
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => resolve(body))
  })

/**
 * A local server answering in Twilio's wire format for what the adapter calls: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded, with HTTP Basic auth of the account SID and auth
 * token; the answer is a Message resource as JSON (201, status queued), or Twilio's error shape. `refuse` makes a
 * number answer an error (21610: the number replied STOP to the carrier; 21211: not a valid number).
 */
export const startTwilioServer = async () => {
  const calls: Array<TwilioCall> = []
  const refuse = new Map<string, { status: number; code: number; message: string }>()
  const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`
  const server = createServer(async (req, res) => {
    const body = await read(req)
    const path = (req.url ?? "/").split("?")[0]
    const form = Object.fromEntries(new URLSearchParams(body))
    calls.push({
      method: req.method ?? "",
      path,
      form,
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"]
    })
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(json))
    }
    const error = (status: number, code: number, message: string) =>
      reply(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status })
    if (req.headers.authorization !== expected) return error(401, 20003, "Authenticate")
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path)
    if (req.method !== "POST" || m === null || m[1] !== ACCOUNT_SID)
      return error(404, 20404, "The requested resource was not found")
    if (!form.To || !form.Body || (!form.From && !form.MessagingServiceSid))
      return error(400, 21604, "A 'To' phone number, a 'Body' and a 'From' or 'MessagingServiceSid' are required.")
    const refused = refuse.get(form.To)
    if (refused) return error(refused.status, refused.code, refused.message)
    const sid = `SM${randomBytes(16).toString("hex")}`
    const now = new Date().toUTCString()
    reply(201, {
      account_sid: ACCOUNT_SID,
      api_version: "2010-04-01",
      body: form.Body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: "outbound-api",
      error_code: null,
      error_message: null,
      from: form.From ?? null,
      messaging_service_sid: form.MessagingServiceSid ?? null,
      num_media: "0",
      num_segments: "1",
      price: null,
      price_unit: "USD",
      sid,
      status: form.MessagingServiceSid ? "accepted" : "queued",
      subresource_uris: { media: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}/Media.json` },
      to: form.To,
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}.json`
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    calls,
    refuse,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * X-Twilio-Signature as Twilio computes it (written out here, not taken from the SDK): the full URL it calls, then
 * each POST field's name and value in the order of the names, HMAC-SHA1 with the auth token, base64.
 */
export const twilioSignature = (authToken: string, url: string, params: Record<string, string>) =>
  createHmac("sha1", authToken)
    .update(
      Object.keys(params)
        .sort()
        .reduce((s, k) => s + k + params[k], url),
      "utf8"
    )
    .digest("base64")

/** The address the apps of the Twilio suites say they are at (Twilio signs over it), and their sending number. */
export const TWILIO_PUBLIC_URL = "https://engine.example.test"
export const TWILIO_FROM = "+14155552671"

/** A Twilio stand-in and an app that texts through it, each stopped by close. */
export const startTwilioApp = async (overrides: Partial<AppConfig> = {}) => {
  const twilio = await startTwilioServer()
  const app = await startApp({
    ...overrides,
    publicUrl: TWILIO_PUBLIC_URL,
    twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: TWILIO_FROM, apiBaseUrl: twilio.url }
  })
  const close = async () => {
    await app.close()
    await twilio.close()
  }
  return { app, twilio, close }
}
