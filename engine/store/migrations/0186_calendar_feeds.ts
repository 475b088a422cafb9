import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Calendar feeds: a secret iCalendar URL per team member (the times they teach, the appointments they take) or per
 * offering. Only the SHA-256 of the secret is kept (token_hash); revoked_at ends it for good.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table calendar_feeds (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      kind text not null check (kind in ('member', 'offering')),
      user_id uuid references members(user_id),
      offering_id uuid references offerings(id),
      token_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz,
      check ((kind = 'member') = (user_id is not null) and (kind = 'offering') = (offering_id is not null))
    );
    create index calendar_feeds_org on calendar_feeds (org_id, created_at) where revoked_at is null;
  `)
})
