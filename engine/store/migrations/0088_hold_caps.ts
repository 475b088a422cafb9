import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Caps on unpaid holds made by guests themselves (sources widget, which is also the hosted page, and assistant), so one
 * client cannot hold a whole class while it never pays:
 * - `orgs.max_guest_holds` (default 3; null: none): live holds one guest may have at once (too_many_holds);
 * - `orgs.max_held_percent` (default 50; null: none): the part of a time's places such holds may take at once, unless
 *   the hold is the only one there (places_on_hold).
 * Checked after the booking's row is written, in the same statement: the time's row is then locked by booking_places,
 * and the guest's holds by an advisory lock, so holds made at the same instant are counted one after the other. Holds
 * past their expiry do not count. Bookings made with a secret key (api, mcp) are the business's own, and a reseller's (octo) are bound by its contract:
 * neither is capped.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table orgs
      add column max_guest_holds integer default 3 check (max_guest_holds between 1 and 1000),
      add column max_held_percent integer default 50 check (max_held_percent between 1 and 100);

    create function booking_hold_caps() returns trigger language plpgsql as $$
    declare
      lim record;
      n integer;
      held integer;
      cap integer;
      first_end timestamptz;
    begin
      select max_guest_holds, max_held_percent into lim from orgs where id = new.org_id;
      if lim.max_guest_holds is not null then
        perform pg_advisory_xact_lock(hashtextextended('holds:' || new.customer_id::text, 0));
        select count(*), min(expires_at) into n, first_end from bookings b
          where b.customer_id = new.customer_id and b.status = 'held' and b.keeps_place and b.expires_at > new.created_at
            and b.source in ('widget', 'assistant') and b.id <> new.id;
        if n >= lim.max_guest_holds then
          perform booking_refused('too_many_holds', format(
            'this guest already has %s unpaid bookings held, the most this business allows: pay for one or wait until %s, when the first is let go',
            n, to_char(first_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
        end if;
      end if;
      if new.session_id is not null and lim.max_held_percent is not null then
        select s.cap into cap from sessions s where s.id = new.session_id;
        select coalesce(sum(b.places), 0), min(b.expires_at) into held, first_end from bookings b
          where b.session_id = new.session_id and b.status = 'held' and b.keeps_place and b.expires_at > new.created_at
            and b.source in ('widget', 'assistant') and b.id <> new.id;
        if held > 0 and held + new.places > ceil(cap * lim.max_held_percent / 100.0) then
          perform booking_refused('places_on_hold', format(
            'the places left at this time are held by guests finishing their bookings; try again after %s, when the first hold ends',
            to_char(first_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
        end if;
      end if;
      return null;
    end $$;

    create trigger booking_hold_caps after insert on bookings for each row
      when (new.status = 'held' and new.source in ('widget', 'assistant'))
      execute function booking_hold_caps();
  `)
})
