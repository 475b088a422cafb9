import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table orgs (
      id uuid primary key,
      name text not null,
      timezone text not null,
      currency text not null,
      plan text not null check (plan in ('free','pro','growth','scale')),
      waiver_text text,
      waiver_version integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz
    );
    create table api_keys (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      prefix text not null,
      hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    );
    create index api_keys_org on api_keys (org_id);
    create table members (
      user_id uuid primary key,
      org_id uuid not null references orgs(id),
      email text not null,
      name text,
      role text not null check (role in ('owner','staff')),
      created_at timestamptz not null
    );
    create unique index members_org_email on members (org_id, lower(email));
    create table offerings (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      kind text not null check (kind in ('class','appointment','rental')),
      name text not null,
      description text not null,
      location text not null,
      duration_minutes integer not null,
      capacity integer not null check (capacity between 1 and 10000),
      max_per_booking integer not null,
      price_cents integer not null check (price_cents >= 0),
      guest_price_cents integer,
      deposit_cents integer,
      deposit_percent integer,
      slot_interval_minutes integer,
      buffer_minutes integer not null,
      min_notice_minutes integer not null,
      max_advance_days integer not null,
      max_periods integer not null,
      state text not null check (state in ('active','paused','removed')),
      metadata jsonb not null,
      lat double precision,
      lon double precision,
      place_id text,
      gauge_site text,
      schedule text,
      waiver_required boolean not null,
      waitlist_enabled boolean not null,
      course boolean not null,
      questions jsonb not null,
      hours jsonb,
      photo_url text,
      created_at timestamptz not null,
      updated_at timestamptz,
      deleted_at timestamptz,
      check (deposit_cents is null or deposit_percent is null)
    );
    create index offerings_org on offerings (org_id, created_at) where deleted_at is null;
    create table events (
      id bigserial primary key,
      org_id uuid not null,
      type text not null,
      data jsonb not null,
      created_at timestamptz not null
    );
    create index events_org on events (org_id, id);
    create index events_org_type on events (org_id, type, id);
    create table idempotency_keys (
      org_id uuid not null,
      key text not null,
      request_hash text not null,
      status integer not null,
      headers jsonb not null,
      body text not null,
      created_at timestamptz not null,
      primary key (org_id, key)
    );
    create index idempotency_created on idempotency_keys (created_at);
  `)
})
