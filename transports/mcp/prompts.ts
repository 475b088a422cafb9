import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"

/** Prompts: messages that walk an agent through the tools for a task, with the task's particulars filled in. */
export const PROMPTS = [
  {
    name: "book_for_guest",
    title: "Book for a guest",
    description: "Find a time that fits a guest's party and book it for them, with the payment link when it is priced.",
    arguments: [
      { name: "offering", description: "The offering's id, or its name", required: true },
      { name: "guest_name", description: "The guest's name", required: true },
      { name: "guest_email", description: "The guest's email", required: true },
      { name: "party", description: "How many people (or items, for a rental); 1 unless said", required: false },
      {
        name: "when",
        description: "When the guest would like to come, in their words (a date, a day, a time of day)",
        required: false
      }
    ]
  },
  {
    name: "cancel_session_and_tell_guests",
    title: "Cancel a session and tell its guests",
    description:
      "Cancel one time on a calendar, refund or offer its guests another time, and make sure each was told why.",
    arguments: [
      { name: "session_id", description: "The session's id (sessions_list)", required: true },
      {
        name: "reason",
        description: "Why it is cancelled, in words for the guests (at most 200 characters)",
        required: true
      },
      {
        name: "guests",
        description: "refund (default) cancels and refunds; choose lets each guest pick another time or a refund",
        required: false
      }
    ]
  }
] as const

const need = (args: Record<string, string>, name: string) => {
  const v = args[name]
  if (v === undefined || v.trim() === "") throw new McpError(ErrorCode.InvalidParams, `${name}: is missing`)
  return v.trim()
}

const user = (text: string) => ({ role: "user" as const, content: { type: "text" as const, text } })

/** prompts/get: the prompt's messages for these arguments. */
export const promptMessages = (name: string, args: Record<string, string>) => {
  if (name === "book_for_guest") {
    const offering = need(args, "offering")
    const guest = need(args, "guest_name")
    const email = need(args, "guest_email")
    const party = args.party?.trim() || "1"
    const when = args.when?.trim()
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(offering)
    return {
      description: `Book ${offering} for ${guest}`,
      messages: [
        user(
          [
            `Book for a guest: ${guest} <${email}>, a party of ${party}, for ${isId ? `the offering ${offering}` : `the offering named "${offering}"`}${when ? `, ${when}` : ""}.`,
            "",
            "Steps:",
            isId
              ? `1. Read the offering (resource booking-engine://offerings/${offering}, or offerings_get with id) for its kind, price_cents, capacity, max_per_booking and questions.`
              : `1. Find the offering with offerings_list (match "${offering}" by name; ask me if several fit or none is active), then read its kind, price_cents, max_per_booking and questions.`,
            "2. org_get for the time zone and currency: dates and wall times are local to the org, money is in minor units.",
            `3. availability_get with the offering's id${when ? ` and from/to covering "${when}"` : " (the next 14 days by default)"}. Keep only times whose remaining is at least ${party}.`,
            "4. Propose the best fitting time (or two) to me and wait for my choice; never pick silently when several fit.",
            `5. bookings_create with offering_id, session_id (a class) or starts_at (an appointment or a rental; periods for a rental), quantity ${party}, customer {name: "${guest}", email: "${email}"}, answers for the offering's required questions, and an idempotency_key you make up once and reuse on any retry.`,
            "6. If the answer has status held with a checkout_url, the booking is priced: give the guest that link and its expires_at. If it is confirmed, it is done.",
            "7. Errors come back as isError with {error: {code, message}}: sold_out or time_not_available means pick another time from step 3; invalid_<field> names what to fix.",
            "8. Tell me the booking's reference, time (local), quantity and total_cents in the org's currency."
          ].join("\n")
        )
      ]
    }
  }
  if (name === "cancel_session_and_tell_guests") {
    const session = need(args, "session_id")
    const reason = need(args, "reason")
    const guests = args.guests?.trim() || "refund"
    if (guests !== "refund" && guests !== "choose")
      throw new McpError(ErrorCode.InvalidParams, "guests: refund or choose")
    return {
      description: `Cancel session ${session} and tell its guests`,
      messages: [
        user(
          [
            `Cancel the session ${session} and make sure its guests know. Reason for the guests: "${reason}".`,
            "",
            "Steps:",
            `1. bookings_list with session_id ${session} (status confirmed, then held) to see who is booked: names, emails, quantity, what they paid.`,
            "2. Tell me how many guests and bookings this touches and what they paid, and wait for my go-ahead.",
            `3. sessions_cancel with id ${session}, guests "${guests}", note "${reason.slice(0, 200)}" and an idempotency_key (reuse it on a retry). ` +
              (guests === "refund"
                ? "Each booking is cancelled and online payments refunded; each guest is emailed with the note."
                : "Each guest is emailed the note and a link to choose another time or a refund, by choose_by."),
            "4. events_list (type booking.cancelled or booking.called_off, after the last event id you saw) to check each booking was handled; a booking.refund_failed needs a person.",
            "5. For anything the note could not say (a guest who asked something, a hand-paid booking to settle), messages_send with booking_id and a short body.",
            "6. Report to me: bookings cancelled, refunds made or pending, and anyone who needs a personal follow-up."
          ].join("\n")
        )
      ]
    }
  }
  throw new McpError(ErrorCode.InvalidParams, `no prompt named ${name}`)
}
