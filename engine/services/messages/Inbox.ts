import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { TooManyQuestions } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { Message } from "../../schema/message.ts"
import { customerStore } from "../../store/customers.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { Events } from "../Events.ts"
import { keywordOf, keywordReply } from "../texts/keywords.ts"
import { Texts } from "../texts/Texts.ts"
import { Messages } from "./Messages.ts"

/** Questions one email address may ask an org from its booking page in an hour. */
export const QUESTIONS_PER_HOUR = 5

/** What became of a text a guest sent: its thread, a keyword handled, or a number no guest has. */
export type TextOutcome = "repeat" | "stored" | "opted_out" | "opted_in" | "help" | "unknown_sender" | "erased"

/**
 * How guests write in besides email and their booking page: a text to the deployment's number (Twilio's webhook), and
 * a question on the org's booking page before booking (name, email, question). Both land in a thread the business
 * answers like any other, as message.received.
 */
export class Inbox extends Effect.Service<Inbox>()("Inbox", {
  dependencies: [Messages.Default, Texts.Default, Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const messages = yield* Messages
    const texts = yield* Texts
    const events = yield* Events
    const customers = yield* customerStore

    /**
     * The guest a number belongs to: of the org that last texted it (the number is the deployment's, shared by every
     * org), else the guest with the latest booking; their latest booking's thread, or one on the guest alone.
     */
    const guestOf = (phone: string) =>
      sql<{ org_id: string; org_name: string; customer_id: string; booking_id: string | null }>`
        select c.org_id, g.name as org_name, c.id as customer_id,
          (select b.id from bookings b where b.customer_id = c.id order by b.created_at desc, b.id limit 1) as booking_id
        from customers c join orgs g on g.id = c.org_id
        where c.phone = ${phone} and c.erased_at is null
        order by (select max(t.created_at) from texts t where t.org_id = c.org_id and t.to_phone = ${phone}) desc nulls last,
          (select max(b.created_at) from bookings b where b.customer_id = c.id) desc nulls last, c.created_at desc
        limit 1`.pipe(Effect.map((rows) => rows[0]))

    /**
     * A text from a guest (From in E.164): STOP, START and HELP as carriers require; else into the guest's thread. A
     * repeat of a text already taken (the same MessageSid: Twilio retries) changes nothing and is answered with nothing.
     */
    const text = fn("Inbox.text")(function* (input: { from: string; body: string; messageSid?: string | undefined }) {
      return yield* Effect.gen(function* () {
        if (input.messageSid !== undefined && !(yield* texts.received(input.messageSid)))
          return { outcome: "repeat" as TextOutcome, reply: undefined, message: undefined }
        const guest = yield* guestOf(input.from)
        const sender = guest?.org_name ?? "Bookings"
        const keyword = keywordOf(input.body)
        if (keyword !== undefined) {
          if (keyword.kind === "stop") yield* texts.optOut(input.from, keyword.word)
          if (keyword.kind === "start") yield* texts.optIn(input.from)
          const outcome: TextOutcome =
            keyword.kind === "stop" ? "opted_out" : keyword.kind === "start" ? "opted_in" : "help"
          return { outcome, reply: keywordReply(keyword, sender), message: undefined }
        }
        if (guest === undefined)
          return { outcome: "unknown_sender" as TextOutcome, reply: undefined, message: undefined }
        const v = yield* messages.conversation(guest.org_id, guest, true)
        if (Option.isNone(v) || v.value.email === null)
          return { outcome: "erased" as TextOutcome, reply: undefined, message: undefined }
        const message: Message = yield* messages.inbound(v.value, input.body, "text")
        return { outcome: "stored" as TextOutcome, reply: undefined, message }
      }).pipe(transaction(sql), Effect.orDie)
    })

    /**
     * A visitor's question on the org's booking page, before any booking: the guest found or added by email (no
     * account), a thread on the guest alone, message.received with channel page. At most QUESTIONS_PER_HOUR from one
     * address an hour (429 too_many_questions).
     */
    const question = fn("Inbox.question")(function* (
      orgId: string,
      input: { name: string; email: string; question: string }
    ) {
      return yield* Effect.gen(function* () {
        const now = yield* clock.now
        const since = new Date(now.getTime() - 3600_000)
        const [asked] = yield* sql<{ n: number }>`
          select count(*)::int as n from messages m join customers c on c.id = m.customer_id
          where m.org_id = ${orgId} and lower(c.email) = lower(${input.email.trim()}) and m.direction = 'inbound'
            and m.channel = 'page' and m.booking_id is null and m.created_at > ${since}`
        if (asked.n >= QUESTIONS_PER_HOUR) {
          return yield* new TooManyQuestions({
            message: `this address has asked ${QUESTIONS_PER_HOUR} questions in the last hour; please wait for an answer`
          })
        }
        const guest = yield* customers.findOrCreate(orgId, { email: input.email, name: input.name }, now)
        if (guest.events.length > 0) yield* events.append(orgId, guest.events)
        const v = yield* messages.conversation(orgId, { customer_id: guest.id, booking_id: null }, true)
        return yield* messages.inbound(Option.getOrThrow(v), input.question, "page")
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    return { text, question } as const
  })
}) {}
