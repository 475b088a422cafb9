import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

// Relay progress is per event (relayed_at), not one cursor: across orgs ids are not handed out in commit
// order, so a global "last id relayed" could pass an event still being written. Webhook endpoints keep
// their machine state, a per-endpoint cursor (event id) and a lease for the instance delivering them.
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table events add column relayed_at timestamptz;
    create index events_unrelayed on events (id) where relayed_at is null;
    create table webhook_endpoints (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      url text not null,
      events text[] not null,
      secret text not null,
      api_key_id uuid not null references api_keys(id),
      state text not null check (state in ('active','failing','off')),
      context jsonb not null,
      cursor_id bigint not null,
      seen_event_id bigint not null default 0,
      retry_at timestamptz,
      last_delivery_at timestamptz,
      lease_owner uuid,
      leased_until timestamptz,
      created_at timestamptz not null
    );
    create index webhook_endpoints_org on webhook_endpoints (org_id, created_at);
    create index webhook_endpoints_key on webhook_endpoints (api_key_id) where state <> 'off';
    create index webhook_endpoints_retry on webhook_endpoints (retry_at) where state = 'failing';
    create table webhook_deliveries (
      id bigserial primary key,
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      event_id bigint not null,
      status integer,
      duration_ms integer not null,
      error text,
      at timestamptz not null
    );
    create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id);
  `)
})
