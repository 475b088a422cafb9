import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Team invites (a token link, stored hashed, 7 days), and members who leave: kept with removed_at so their past
 * times and keys stay explained, while their email may join again.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table invites (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      email text not null,
      role text not null check (role in ('owner', 'staff')),
      token_hash text not null unique,
      invited_by uuid,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      ended_at timestamptz,
      end_reason text check (end_reason in ('revoked', 'declined', 'expired'))
    );
    create unique index invites_waiting on invites (org_id, lower(email)) where accepted_at is null and ended_at is null;
    alter table members add column removed_at timestamptz;
    drop index members_org_email;
    create unique index members_org_email on members (org_id, lower(email)) where removed_at is null;
  `)
})
