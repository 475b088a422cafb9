import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The texts Twilio delivered to the engine, by MessageSid: Twilio retries a webhook it got no answer to, and its
 * signatures carry no time, so the same signed text can arrive twice; the second is answered and changes nothing. The
 * sender number is the deployment's (shared by every org), and a MessageSid is unique at Twilio, so the key is the sid
 * alone (the org a text belongs to is found after it is taken).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table text_receipts (
      message_sid text primary key,
      received_at timestamptz not null
    );
    create index text_receipts_received on text_receipts (received_at);
  `)
})
