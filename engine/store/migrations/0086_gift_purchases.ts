import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Gift cards bought by a guest through a checkout of the processor (gift_cards.purchase). A gift_purchases row is
 * written before the checkout is opened; the payment landing issues its card once (gift_card_id, unique) in the
 * same transaction as the ledger row. A checkout (ours and the sandbox's) and a ledger row are now for a booking or
 * for a gift purchase, never both.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table gift_purchases (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      amount_cents integer not null check (amount_cents > 0),
      currency text not null,
      for_email text not null,
      message text,
      buyer_email text,
      buyer_name text,
      source text not null,
      status text not null default 'open' check (status in ('open', 'paid', 'expired', 'failed')),
      checkout_id text,
      checkout_url text,
      expires_at timestamptz,
      payment_intent_id text unique,
      gift_card_id uuid unique references gift_cards(id),
      created_at timestamptz not null,
      paid_at timestamptz
    );
    create index gift_purchases_org on gift_purchases (org_id, created_at);
    create index gift_purchases_checkout on gift_purchases (checkout_id);

    alter table payment_checkouts alter column booking_id drop not null;
    alter table payment_checkouts add column gift_purchase_id uuid references gift_purchases(id);
    alter table payment_checkouts add constraint payment_checkouts_for_one check ((booking_id is null) <> (gift_purchase_id is null));

    alter table payments alter column booking_id drop not null;
    alter table payments add column gift_purchase_id uuid references gift_purchases(id);
    alter table payments add constraint payments_for_one check ((booking_id is null) <> (gift_purchase_id is null));

    alter table sandbox_checkouts alter column booking_id drop not null;
    alter table sandbox_checkouts add column gift_purchase_id uuid;
  `)
})
