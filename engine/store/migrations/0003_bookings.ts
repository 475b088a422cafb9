import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table customers (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      email text,
      name text,
      phone text,
      created_at timestamptz not null,
      updated_at timestamptz,
      erased_at timestamptz
    );
    create unique index customers_org_email on customers (org_id, lower(email)) where erased_at is null;
    create index customers_org on customers (org_id, created_at);
    create table bookings (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      offering_id uuid not null references offerings(id),
      customer_id uuid not null references customers(id),
      session_id uuid references sessions(id),
      series_id uuid references series(id),
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      quantity integer not null check (quantity between 1 and 10000),
      state text not null,
      machine jsonb not null,
      status text not null check (status in ('held','confirmed','cancelled')),
      keeps_place boolean not null,
      expires_at timestamptz,
      choose_by timestamptz,
      total_cents integer not null check (total_cents >= 0),
      discount_cents integer not null default 0,
      promo_code text,
      gift_card_id uuid,
      gift_cents integer not null default 0,
      reference text not null,
      handle text not null unique,
      source text not null,
      notes text not null default '',
      answers jsonb not null default '{}',
      metadata jsonb not null default '{}',
      checkout_url text,
      paid_at timestamptz,
      paid_cents integer,
      payment_intent_id text,
      charged_cents integer,
      refund_id text,
      refund_cents integer,
      refunded_at timestamptz,
      refund_failed_at timestamptz,
      refund_error text,
      refund_next_at timestamptz,
      guest_cancel_hours integer,
      nudged_at timestamptz,
      waiver_token text unique,
      waiver_needed integer,
      waiver_signed integer not null default 0,
      confirmed_at timestamptz,
      cancelled_at timestamptz,
      reseller_reference text,
      cancel_reason text,
      checked_in_at timestamptz,
      no_show_at timestamptz,
      previous jsonb,
      created_at timestamptz not null,
      updated_at timestamptz,
      check (ends_at > starts_at),
      check (checked_in_at is null or no_show_at is null),
      check (status <> 'cancelled' or not keeps_place)
    );
    create unique index bookings_org_reference on bookings (org_id, upper(reference));
    create index bookings_org_start on bookings (org_id, starts_at, id);
    create index bookings_offering_live on bookings (offering_id, starts_at) where keeps_place;
    create index bookings_session_live on bookings (session_id) where keeps_place;
    create index bookings_series_live on bookings (series_id, starts_at) where keeps_place and series_id is not null;
    create index bookings_customer on bookings (customer_id);
    create index bookings_expiring on bookings (expires_at) where status = 'held' and keeps_place;
    create index bookings_choosing on bookings (choose_by) where choose_by is not null and status = 'confirmed';
  `)
})
