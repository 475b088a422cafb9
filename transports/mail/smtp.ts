import { Effect, Layer, Runtime } from "effect"
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer, type SMTPServerSession } from "smtp-server"
import { Messages } from "../../engine/services/messages/Messages.ts"
import { newText, tokenOf } from "./reply.ts"

const MAX_MAIL_BYTES = 5 * 1024 * 1024

/** A delivery status report (RFC 3464), or mail from the mailer daemon with no envelope sender. */
const isBounce = (mail: ParsedMail, session: SMTPServerSession) => {
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined
  return (
    (type?.value === "multipart/report" && type.params?.["report-type"] === "delivery-status") ||
    session.envelope.mailFrom === false ||
    session.envelope.mailFrom.address === ""
  )
}

/** A spam complaint: an abuse feedback report (ARF, RFC 5965) a mailbox provider sends through its feedback loop. */
const isComplaint = (mail: ParsedMail) => {
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined
  return type?.value === "multipart/report" && type.params?.["report-type"] === "feedback-report"
}

/** What the complaint says of itself: its Feedback-Type and User-Agent (the provider), or "abuse". */
const complaintReason = (mail: ParsedMail) => {
  const report =
    mail.attachments.find((a) => a.contentType === "message/feedback-report")?.content.toString("utf8") ??
    mail.text ??
    ""
  const fields = ["Feedback-Type", "User-Agent"]
    .map((f) => new RegExp(`^${f}:\\s*(.+)$`, "im").exec(report)?.[1]?.trim())
    .filter(Boolean)
  return (fields.length > 0 ? fields.join("; ") : "abuse").slice(0, 500)
}

/** Why the bounce happened, from its delivery-status part (Status and Diagnostic-Code), or its text. */
const bounceReason = (mail: ParsedMail) => {
  // mailparser keeps a delivery-status part as an attachment or folds it into the text, depending on its headers.
  const status =
    mail.attachments.find((a) => a.contentType === "message/delivery-status")?.content.toString("utf8") ??
    mail.text ??
    ""
  const fields = ["Status", "Diagnostic-Code", "Action"]
    .map((f) => new RegExp(`^${f}:\\s*(.+)$`, "im").exec(status)?.[1]?.trim())
    .filter(Boolean)
  return (fields.length > 0 ? fields.join("; ") : (mail.text ?? "bounced").trim().split("\n")[0]).slice(0, 500)
}

/**
 * The inbound SMTP listener (INBOUND_SMTP_PORT): accepts mail to reply+<token>@<domain>, and hands a guest's reply
 * (new text only, from the guest's own address), a bounce report or a spam complaint (an ARF feedback report) to
 * Messages. Refuses every other recipient at
 * RCPT TO. Plain SMTP on the port: put it behind your MX or a relay that does TLS and spam filtering.
 */
export const InboundSmtpLive = (port: number, host: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const messages = yield* Messages
      const run = Runtime.runPromise(yield* Effect.runtime<never>())
      const handle = async (mail: ParsedMail, session: SMTPServerSession) => {
        const tokens = session.envelope.rcptTo
          .map((r) => tokenOf(r.address))
          .filter((t): t is string => t !== undefined)
        for (const token of new Set(tokens)) {
          if (isComplaint(mail)) {
            await run(messages.complaint({ token, reason: complaintReason(mail) }))
            continue
          }
          if (isBounce(mail, session)) {
            await run(messages.bounce({ token, reason: bounceReason(mail) }))
            continue
          }
          const from =
            mail.from?.value[0]?.address ??
            (session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address)
          const text = newText(mail.text ?? "")
          const outcome = text === "" ? "empty" : await run(messages.receive({ token, from, text }))
          if (outcome !== "stored") await run(Effect.logInfo("inbound mail dropped", { outcome, from }))
        }
      }
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["AUTH", "STARTTLS"],
        logger: false,
        size: MAX_MAIL_BYTES,
        banner: "booking-engine replies",
        onRcptTo: (address, _session, callback) =>
          tokenOf(address.address) === undefined
            ? callback(Object.assign(new Error("no such mailbox here"), { responseCode: 550 }))
            : callback(),
        onData: (stream, session, callback) => {
          simpleParser(stream, { skipHtmlToText: false })
            .then((mail) => handle(mail, session))
            .then(
              () => callback(),
              (e: Error) =>
                callback(Object.assign(new Error(`could not take this mail: ${e.message}`), { responseCode: 451 }))
            )
        }
      })
      yield* Effect.acquireRelease(
        Effect.async<void, Error>((resume) => {
          server.once("error", (e) => resume(Effect.fail(e)))
          server.listen(port, host, () => resume(Effect.void))
        }).pipe(
          Effect.mapError((e) => new Error(`cannot listen for inbound mail on ${host}:${port}: ${e.message}`)),
          Effect.orDie
        ),
        () => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
      )
    })
  )
