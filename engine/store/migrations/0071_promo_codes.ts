import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Promo codes: a percentage or an amount off, limited in uses, dates and offerings. `uses` is counted when a booking
 * is made with the code (a conditional update, so N parallel bookings never use a code past max_uses) and given
 * back when its hold lapses unpaid.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table promo_codes (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      code text not null,
      percent_off integer check (percent_off between 1 and 100),
      amount_off_cents integer check (amount_off_cents > 0),
      max_uses integer check (max_uses > 0),
      uses integer not null default 0 check (uses >= 0),
      starts_on date,
      ends_on date,
      offering_ids uuid[],
      active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz,
      check ((percent_off is null) <> (amount_off_cents is null)),
      check (max_uses is null or uses <= max_uses),
      check (starts_on is null or ends_on is null or starts_on <= ends_on)
    );
    create unique index promo_codes_code on promo_codes (org_id, upper(code));
  `)
})
