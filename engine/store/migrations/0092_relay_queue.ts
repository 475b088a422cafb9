import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The relay's progress in a queue of its own instead of a column of every event. Each event's id goes into
 * `relay_queue` in the statement that writes the event; the relay reads the oldest ids of the queue, their events by
 * id, and deletes what it has put on the bus. Before, it marked each event (`relayed_at`): an update that wrote a new copy
 * of the whole event (its data included, 1.5 KB for a booking.confirmed) and an entry in each of the events table's
 * four indexes, and a partial index of the unrelayed events took an entry for every new event. A queue row is an id
 * and one index entry; its delete writes no copy and no index entry. Progress is still kept per event, not as one
 * cursor (docs/events.md says why).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table relay_queue (event_id bigint primary key);
    insert into relay_queue (event_id) select id from events where relayed_at is null;
    drop index events_unrelayed;
    alter table events drop column relayed_at;
  `)
})
