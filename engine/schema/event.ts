import { Schema } from "effect"
import { QueryInt, Text } from "./common.ts"

/** Who made a change an event tells of (docs/events.md, "Who did it"). */
export const Actor = Schema.Struct({
  type: Schema.Literal("person", "key", "guest", "system").annotations({
    description:
      "person: someone signed in to the console (id: their user id); key: an API key (id: the key, user_id: the member it belongs to); guest: the guest themselves (via: widget, guest_page, assistant, or email and text for a message they sent); system: the engine (jobs, the payment processor's webhooks)"
  }),
  id: Schema.optional(Schema.NullOr(Schema.String)),
  user_id: Schema.optional(Schema.NullOr(Schema.String)),
  via: Schema.optional(Schema.Literal("widget", "guest_page", "assistant", "email", "text"))
}).annotations({ identifier: "EventActor" })
export type Actor = typeof Actor.Type

export const Event = Schema.Struct({
  id: Schema.Int,
  type: Schema.String,
  data: Schema.Unknown.annotations({
    jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"] }
  }),
  created_at: Schema.String,
  actor: Schema.optional(
    Schema.NullOr(Actor).annotations({
      description: "Who made the change (events.list): null for events written before actors were recorded"
    })
  )
}).annotations({ identifier: "Event" })
export type Event = typeof Event.Type

export const EventsQuery = Schema.Struct({
  after: Schema.optional(
    QueryInt(0, undefined, "The cursor: serve events after this id (next_after of the last page); 0 from the beginning")
  ),
  limit: Schema.optional(QueryInt(1, 200, "At most this many events (default 50)")),
  type: Schema.optional(Text(1, 80).pipe(Schema.pattern(/^[a-z_]+\.[a-z_]+$/))),
  order: Schema.optional(Schema.Literal("asc", "desc")).annotations({
    description: "By id: asc (default, oldest first) or desc (newest first)"
  }),
  booking_id: Schema.optional(
    Schema.UUID.annotations({
      description:
        "Only the events about this booking (not in the spec, our extension): its booking.* events and those naming it in data.booking_id (waiver.signed, gift_card.refunded, message.*). Another org's booking id serves none"
    })
  )
})
export const EventPage = Schema.Struct({ data: Schema.Array(Event), next_after: Schema.Int })

/** An event a change appends to the org's feed, in its transaction (the outbox). */
export interface NewEvent {
  readonly type: string
  readonly data: unknown
}
