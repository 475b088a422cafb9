import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A booking's history (events.list with booking_id): the events about one booking are its own (`booking.*`, whose
 * data is the booking: data.id) and those that name it (data.booking_id: waiver.signed, gift_card.refunded,
 * message.*), the same rule the MCP resource subscriptions use. This index answers (org, that booking) in id order,
 * reading only the booking's entries; it is partial (events about no booking are not in it). engine/services/Events.ts
 * writes the same expression in its query, so the planner matches it.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create index events_booking on events
      (org_id, (case when left(type, 8) = 'booking.' then data->>'id' else data->>'booking_id' end), id)
      where (case when left(type, 8) = 'booking.' then data->>'id' else data->>'booking_id' end) is not null;
  `)
})
