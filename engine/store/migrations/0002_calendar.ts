import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table series (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      offering_id uuid not null references offerings(id),
      starts_on date not null,
      start_time text,
      end_time text,
      span_days integer not null check (span_days between 0 and 30),
      repeat text not null check (repeat in ('none','daily','weekly','monthly','yearly','weekdays')),
      capacity integer check (capacity between 1 and 10000),
      ends_on date,
      made_until date not null,
      teacher_id uuid references members(user_id),
      created_at timestamptz not null,
      updated_at timestamptz,
      deleted_at timestamptz,
      check ((start_time is null) = (end_time is null))
    );
    create index series_offering on series (offering_id) where deleted_at is null;
    create table sessions (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      offering_id uuid not null references offerings(id),
      series_id uuid references series(id),
      occurs_on date,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      capacity integer check (capacity between 1 and 10000),
      state text not null check (state in ('scheduled','cancelled','removed')),
      teacher_id uuid references members(user_id),
      cancel_guests text,
      cancel_note text,
      cancelled_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz,
      check (ends_at > starts_at)
    );
    create index sessions_offering_time on sessions (offering_id, starts_at) where state <> 'removed';
    create index sessions_org_time on sessions (org_id, starts_at) where state <> 'removed';
    create index sessions_series on sessions (series_id, starts_at) where state <> 'removed';
    create unique index sessions_series_day on sessions (series_id, occurs_on) where state <> 'removed';
  `)
})
