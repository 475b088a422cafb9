import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Gift cards: a balance in the org's currency, its code stored as a hash. Every movement is a row of gift_card_moves
 * (issue, adjust, redeem, return) written with the balance change, so the balance is always the sum of its moves.
 * A booking returns what it took at most once (gift_returned_at).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table gift_cards (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      code_hash text not null,
      last4 text not null,
      amount_cents integer not null check (amount_cents > 0),
      balance_cents integer not null check (balance_cents >= 0),
      currency text not null,
      for_email text,
      note text,
      created_at timestamptz not null,
      updated_at timestamptz
    );
    create unique index gift_cards_code on gift_cards (org_id, code_hash);
    create table gift_card_moves (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      gift_card_id uuid not null references gift_cards(id),
      booking_id uuid,
      cents integer not null,
      kind text not null check (kind in ('issue', 'adjust', 'redeem', 'return')),
      note text,
      created_at timestamptz not null
    );
    create index gift_card_moves_card on gift_card_moves (gift_card_id, created_at);
    alter table bookings add column gift_returned_at timestamptz;
  `)
})
