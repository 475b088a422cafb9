import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The waitlist: a guest waiting for `places` at one calendar time. `told_at` marks an entry told of the current
 * opening (cleared when it is told again at the next); an entry ends with a reason and stays on record.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table waitlist_entries (
      id uuid primary key,
      seq bigint generated always as identity,
      org_id uuid not null references orgs(id),
      offering_id uuid not null references offerings(id),
      session_id uuid not null references sessions(id),
      customer_id uuid not null references customers(id),
      places integer not null check (places between 1 and 10000),
      created_at timestamptz not null,
      updated_at timestamptz,
      told_at timestamptz,
      ended_at timestamptz,
      end_reason text check (end_reason in ('removed', 'left', 'booked', 'called_off', 'closed'))
    );
    create unique index waitlist_live on waitlist_entries (session_id, customer_id) where ended_at is null;
    create index waitlist_org on waitlist_entries (org_id, offering_id, seq);
  `)
})
