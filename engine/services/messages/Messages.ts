import { randomBytes, randomUUID } from "node:crypto"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { InvalidConversation, NoPhone, notFound, RecipientErased } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links, replyAddress } from "../../ports/Links.ts"
import { customerStore } from "../../store/customers.ts"
import { failLatest as failLatestRow, insertConversation, insertMessage, messagesWith } from "../../store/messages.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Mail } from "../mail/Mail.ts"
import { Texts } from "../texts/Texts.ts"
import { Drafts } from "./Drafts.ts"
import { ACK, type Conversation, type MessageRow, type Received, toMessage } from "./rows.ts"

export type { Conversation, Received } from "./rows.ts"
export { toMessage } from "./rows.ts"

/**
 * messages.*: a conversation with a guest by email. Mail out carries the conversation's reply address; replies come
 * back through receive (the inbound SMTP listener), bounces through bounce.
 */
export class Messages extends Effect.Service<Messages>()("Messages", {
  dependencies: [Events.Default, Mail.Default, Drafts.Default, Texts.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const mail = yield* Mail
    const links = yield* Links
    const drafts = yield* Drafts
    const customers = yield* customerStore
    const texts = yield* Texts
    const defaultDomain = links.mailDomain ?? "localhost"

    const conversationSql = (where: Statement.Fragment) =>
      sql<Conversation>`select v.*, c.email, c.phone, g.preferred_channel, g.name as org_name, g.auto_acknowledge, g.reply_to_domain, b.reference
        from conversations v join customers c on c.id = v.customer_id join orgs g on g.id = v.org_id left join bookings b on b.id = v.booking_id
        where ${where}`

    /** The guest and booking a message is about: exactly one of booking_id and customer_id, of this org. */
    const subjectOf = (orgId: string, q: { booking_id?: string | undefined; customer_id?: string | undefined }) =>
      Effect.gen(function* () {
        if ((q.booking_id === undefined) === (q.customer_id === undefined)) {
          return yield* new InvalidConversation({ message: "give exactly one of booking_id and customer_id" })
        }
        if (q.booking_id !== undefined) {
          const [b] = yield* sql<{
            customer_id: string
          }>`select customer_id from bookings where org_id = ${orgId} and id = ${q.booking_id}`.pipe(Effect.orDie)
          if (b === undefined) return yield* notFound("booking")
          return { customer_id: b.customer_id, booking_id: q.booking_id as string | null }
        }
        const [c] = yield* sql<{
          id: string
        }>`select id from customers where org_id = ${orgId} and id = ${q.customer_id!} and erased_at is null`.pipe(
          Effect.orDie
        )
        if (c === undefined) return yield* notFound("customer")
        return { customer_id: c.id, booking_id: null as string | null }
      })

    const conversation = (orgId: string, about: { customer_id: string; booking_id: string | null }, create: boolean) =>
      Effect.gen(function* () {
        const key = sql`v.org_id = ${orgId} and v.customer_id = ${about.customer_id} and ${about.booking_id === null ? sql`v.booking_id is null` : sql`v.booking_id = ${about.booking_id}`}`
        const [found] = yield* conversationSql(key)
        if (found !== undefined || !create) return Option.fromNullable(found)
        yield* insertConversation(sql, {
          id: randomUUID(),
          org_id: orgId,
          customer_id: about.customer_id,
          booking_id: about.booking_id,
          reply_token: randomBytes(12).toString("hex"),
          created_at: yield* clock.now
        })
        return Option.fromNullable((yield* conversationSql(key))[0])
      })

    const list = fn("Messages.list")(function* (q: {
      booking_id?: string | undefined
      customer_id?: string | undefined
    }) {
      const org = yield* CurrentOrg
      const about = yield* subjectOf(org.id, q)
      const rows = yield* messagesWith(sql, org.id, about.customer_id, about.booking_id).pipe(Effect.orDie)
      return { data: rows.map(toMessage) }
    })

    /**
     * Writes a message out: the row, its mail (with the conversation's reply address) or text, and message.sent, in one
     * transaction. A text to a number that replied STOP is kept failed, with why, and announces nothing.
     */
    const post = (v: Conversation, body: string, channel: "email" | "system" | "text") =>
      Effect.gen(function* () {
        if (v.email === null)
          return yield* new RecipientErased({ message: "this guest was erased: there is no one to write to" })
        if (channel === "text") return yield* postText(v, body)
        const now = yield* clock.now
        const subject =
          v.reference === null
            ? `A message from ${v.org_name}`
            : `A message from ${v.org_name} about booking ${v.reference}`
        const mailId = yield* mail.enqueue(v.org_id, {
          to: v.email,
          subject,
          text: body,
          kind: "message",
          bookingId: v.booking_id,
          replyTo: replyAddress(v.reply_token, v.reply_to_domain ?? defaultDomain)
        })
        const row: MessageRow = {
          id: randomUUID(),
          org_id: v.org_id,
          conversation_id: v.id,
          booking_id: v.booking_id,
          customer_id: v.customer_id,
          direction: "outbound",
          channel,
          body,
          mail_id: mailId,
          created_at: now,
          delivered_at: null,
          failed_at: null,
          failure_reason: null
        }
        yield* insertMessage(sql, row)
        const message = toMessage(row)
        yield* events.append(v.org_id, [{ type: "message.sent", data: { ...message, channel: "email" } }])
        return message
      })

    const postText = (v: Conversation, body: string) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const queued = yield* texts.enqueue({
          orgId: v.org_id,
          to: v.phone!,
          body,
          kind: "message",
          bookingId: v.booking_id
        })
        const row: MessageRow = {
          id: randomUUID(),
          org_id: v.org_id,
          conversation_id: v.id,
          booking_id: v.booking_id,
          customer_id: v.customer_id,
          direction: "outbound",
          channel: "text",
          body,
          mail_id: null,
          text_id: queued.id,
          segments: queued.segments,
          created_at: now,
          delivered_at: null,
          failed_at: queued.refused === null ? null : now,
          failure_reason: queued.refused
        }
        yield* insertMessage(sql, row)
        const message = toMessage(row)
        if (queued.refused === null) yield* events.append(v.org_id, [{ type: "message.sent", data: message }])
        return message
      })

    /** By the channel asked for; else the org's preferred one, by email for a guest without a phone. */
    const channelFor = (v: Conversation, asked: "email" | "text" | undefined) => {
      if (asked === "text" && v.phone === null)
        return Effect.fail(
          new NoPhone({ message: "this guest has no phone number to text: add one to the customer, or send by email" })
        )
      const channel = asked ?? v.preferred_channel
      return Effect.succeed(channel === "text" && v.phone !== null ? ("text" as const) : ("email" as const))
    }

    const send = fn("Messages.send")(function* (input: {
      booking_id?: string | undefined
      customer_id?: string | undefined
      body: string
      channel?: "email" | "text" | undefined
    }) {
      const org = yield* CurrentOrg
      const about = yield* subjectOf(org.id, input)
      return yield* Effect.gen(function* () {
        const v = Option.getOrThrow(yield* conversation(org.id, about, true))
        return yield* post(v, input.body, yield* channelFor(v, input.channel))
      }).pipe(
        transaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        // Committed: a text goes to the provider now, not at the next pass of the job.
        Effect.tap((m) => (m.channel === "text" && m.failed_at === null ? texts.handOver : Effect.void))
      )
    })

    /** A guest's message, from a reply by email or their page: kept, the org's owners told, message.received, the acknowledgement. */
    const inbound = (v: Conversation, text: string, channel: "email" | "page" | "text") =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const row: MessageRow = {
          id: randomUUID(),
          org_id: v.org_id,
          conversation_id: v.id,
          booking_id: v.booking_id,
          customer_id: v.customer_id,
          direction: "inbound",
          channel,
          body: text,
          mail_id: null,
          created_at: now,
          delivered_at: now,
          failed_at: null,
          failure_reason: null
        }
        yield* insertMessage(sql, row)
        // A guest who reported our mail as spam and writes in is mailed again.
        yield* customers.complained(v.customer_id, null)
        const owners = yield* sql<{
          email: string
        }>`select email from members where org_id = ${v.org_id} and role = 'owner' and removed_at is null`
        for (const o of owners) {
          yield* mail.enqueue(v.org_id, {
            to: o.email,
            kind: "message.received",
            bookingId: v.booking_id,
            subject: `${v.email} wrote${v.reference === null ? "" : ` about booking ${v.reference}`}`,
            text: `${v.email} wrote:\n\n${text}\n\nReply with POST /api/v1/messages {"${v.booking_id === null ? "customer_id" : "booking_id"}": "${v.booking_id ?? v.customer_id}", "body": "..."}`
          })
        }
        // Whoever relays it (a mail reply, the guest's page, a text), a message received is the guest's own doing.
        yield* events.append(v.org_id, [{ type: "message.received", data: toMessage(row) }], {
          type: "guest",
          via: channel === "page" ? "guest_page" : channel
        })
        yield* drafts.request({ org_id: v.org_id, conversation_id: v.id, message_id: row.id })
        if (v.auto_acknowledge) yield* post(v, ACK, "system")
        return toMessage(row)
      })

    /**
     * A guest's reply, already stripped of quoted text and signature: kept when it comes from the guest's own address
     * (others are dropped), message.received, the org's owners told, and an acknowledgement when the org wants one.
     */
    const receive = (input: { token: string; from: string; text: string }) =>
      Effect.gen(function* () {
        const [v] = yield* conversationSql(sql`v.reply_token = ${input.token}`)
        if (v === undefined) return "unknown_address" as Received
        if (v.email === null) return "erased" as Received
        if (v.email.toLowerCase() !== input.from.trim().toLowerCase()) return "foreign_sender" as Received
        yield* inbound(v, input.text, "email")
        return "stored" as Received
      }).pipe(transaction(sql), Effect.orDie)

    /** A bounce report for a conversation's address: its latest outbound mail not yet failed is marked failed. */
    const failLatest = (token: string, reason: string) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        return yield* failLatestRow(sql, token, reason, now)
      })
    const bounce = (input: { token: string; reason: string }) =>
      failLatest(input.token, input.reason).pipe(Effect.orDie)

    /**
     * A spam complaint from the mail provider (a feedback report) about a conversation's mail: its latest outbound
     * message is failed as by a bounce (failure_reason says it was a complaint), and the guest is not mailed again,
     * by anyone of the org, until they write in (customers.complained_at). False for an unknown address.
     */
    const complaint = (input: { token: string; reason: string }) =>
      Effect.gen(function* () {
        const [v] = yield* conversationSql(sql`v.reply_token = ${input.token}`)
        if (v === undefined) return false
        yield* failLatest(input.token, `spam complaint: ${input.reason}`)
        yield* customers.complained(v.customer_id, yield* clock.now)
        return true
      }).pipe(transaction(sql), Effect.orDie)

    /** What a guest writes on their booking's page (the page's handle is their credential). */
    const fromPage = (input: {
      readonly org_id: string
      readonly booking_id: string
      readonly customer_id: string
      readonly text: string
    }) =>
      Effect.gen(function* () {
        const v = Option.getOrThrow(
          yield* conversation(input.org_id, { customer_id: input.customer_id, booking_id: input.booking_id }, true)
        )
        if (v.email === null) return yield* new RecipientErased({ message: "this guest was erased" })
        return yield* inbound(v, input.text, "page")
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))

    return { list, send, receive, bounce, complaint, fromPage, conversation, conversationSql, inbound } as const
  })
}) {}
