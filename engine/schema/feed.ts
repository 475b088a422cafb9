import { Schema } from "effect"
import { described, strict } from "./common.ts"

const meaning = {
  kind: "member: the times a team member teaches and the appointments they take; offering: one offering's times",
  user_id: "The team member a member feed shows (a staff member's own, when left out)",
  offering_id: "The offering an offering feed shows",
  created_at: "When it was made",
  revoked_at: "When it was revoked: its URL answers 404 from then on"
}

export const FeedKind = Schema.Literal("member", "offering")

export const Feed = Schema.Struct(
  described(meaning, {
    id: Schema.String,
    kind: FeedKind,
    user_id: Schema.NullOr(Schema.String),
    offering_id: Schema.NullOr(Schema.String),
    created_at: Schema.String,
    revoked_at: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "CalendarFeed" })
export type Feed = typeof Feed.Type

export const FeedCreated = Schema.Struct({
  ...Feed.fields,
  url: Schema.String.annotations({
    description:
      "The secret iCalendar URL (PUBLIC_URL/feeds/<token>.ics) to subscribe to in Google, Apple or Outlook calendars. Shown once: only a hash of it is kept."
  })
}).annotations({ identifier: "CalendarFeedCreated" })
export type FeedCreated = typeof FeedCreated.Type

export const FeedCreate = Schema.Struct(
  described(meaning, {
    kind: FeedKind,
    user_id: Schema.optional(Schema.UUID),
    offering_id: Schema.optional(Schema.UUID)
  })
).annotations({
  ...strict,
  identifier: "CalendarFeedCreate",
  examples: [
    { kind: "member" },
    { kind: "member", user_id: "3c8e2a7d-1f4b-4d6e-9a2c-8b5f7e1d3a90" },
    { kind: "offering", offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10" }
  ]
})
export type FeedCreate = typeof FeedCreate.Type

export const FeedsQuery = Schema.Struct({
  user_id: Schema.optional(Schema.UUID.annotations({ description: "Only this team member's feeds" })),
  offering_id: Schema.optional(Schema.UUID.annotations({ description: "Only this offering's feeds" }))
})
export type FeedsQuery = typeof FeedsQuery.Type
