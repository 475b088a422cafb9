import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Closures: local dates (one or a range, in the org's zone) when the org, or one offering, is closed all day or open
 * other hours (open_hours, wall-clock readings). starts_at and ends_at are the span's instants in the zone the org had
 * when it was made (midnight of starts_on to midnight after ends_on), for finding the closures over a time.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table closures (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      offering_id uuid references offerings(id),
      starts_on date not null,
      ends_on date not null,
      open_hours jsonb not null default '[]',
      note text,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      created_at timestamptz not null,
      check (ends_on >= starts_on),
      check (ends_at > starts_at)
    );
    create index closures_span on closures (org_id, ends_at, starts_at);
  `)
})
