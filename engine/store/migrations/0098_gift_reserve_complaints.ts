import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A gift card's part is taken once the booking is confirmed (the spec), not at the hold: a hold reserves it
 * (gift_cards.reserved_cents, never more than the balance, so two holds cannot spend the same balance), confirming
 * captures it (balance and reserve both go down, the `redeem` move), and a hold that lapses or is cancelled releases
 * it. bookings.gift_taken_at records the capture; a booking of the old rule had its part taken when it was made.
 *
 * customers.complained_at: the guest reported the org's mail as spam; no mail goes to them until they write in.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table gift_cards add column reserved_cents integer not null default 0;
    alter table gift_cards add constraint gift_cards_reserve check (reserved_cents >= 0 and reserved_cents <= balance_cents);
    alter table bookings add column gift_taken_at timestamptz;
    update bookings set gift_taken_at = created_at where gift_card_id is not null and gift_cents > 0;
    alter table customers add column complained_at timestamptz;
  `)
})
