import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * OCTO resellers: a third key kind (rk_live_…, only /api/octo), and on a booking OCTO's uuid (unique per org, so a
 * reseller's retried reservation finds the booking it already made), the contact as the reseller sent it, and its
 * unit items' uuids and references.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table api_keys drop constraint if exists api_keys_kind_check;
    alter table api_keys add constraint api_keys_kind_check check (kind in ('secret', 'publishable', 'reseller'));
    alter table bookings add column octo_uuid text, add column octo_contact jsonb, add column octo_units jsonb;
    create unique index bookings_octo_uuid on bookings (org_id, octo_uuid) where octo_uuid is not null;
  `)
})
