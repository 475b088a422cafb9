import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Less work in a booking's insert, same answers and the same locks (measured in bench/README.md):
 * - booking_places takes a new booking's places at one time with one conditional update (`booked + places <= cap`),
 *   as the bench's floor does, and runs its general path (courses, moves, cancels, rentals and hours, and every
 *   refusal) only when that update changes nothing;
 * - a booking's waiver token is unique where there is one: most bookings have none, and the unique constraint put an
 *   entry for each of their nulls in its index.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table bookings drop constraint bookings_waiver_token_key;
    create unique index bookings_waiver_token on bookings (waiver_token) where waiver_token is not null;

    create or replace function booking_places() returns trigger language plpgsql as $$
    declare
      was boolean := tg_op = 'UPDATE' and old.keeps_place and old.status <> 'cancelled';
      holds boolean := new.keeps_place and new.status <> 'cancelled';
      -- The time or course is new to the row: it must exist under the booking's offering.
      new_time boolean := new.session_id is not null and (tg_op = 'INSERT' or new.session_id is distinct from old.session_id);
      new_course boolean := new.series_id is not null and (tg_op = 'INSERT' or new.series_id is distinct from old.series_id);
      bad record;
      lim integer;
      pad interval;
      peak integer;
    begin
      -- The common case first: a new booking that holds places at one time (not a course). One conditional update
      -- takes them, as a bare program would; the row lock it takes is the one the general path below would take.
      -- When it changes nothing (no such time of this offering, not scheduled, moved, or too few places left) the
      -- general path runs and says which.
      if tg_op = 'INSERT' and holds and new.session_id is not null and new.series_id is null then
        update sessions x set booked = x.booked + new.places
          where x.id = new.session_id and x.offering_id = new.offering_id and x.state = 'scheduled'
            and x.starts_at = new.starts_at and x.ends_at = new.ends_at and x.booked + new.places <= x.cap;
        if found then return new; end if;
      end if;
      if new_course and not exists (select 1 from series x where x.id = new.series_id and x.offering_id = new.offering_id) then
        perform booking_refused('time_not_available', 'this course is not one of the offering''s');
      end if;
      -- A booking that holds places is checked below, on the row its places go to; one that does not, here.
      if new_time and (not holds or new.series_id is not null)
        and not exists (select 1 from sessions x where x.id = new.session_id and x.offering_id = new.offering_id) then
        perform booking_refused('time_not_available', 'this time is no longer available');
      end if;
      if not was and not holds then return new; end if;
      if was and holds and old.session_id is not distinct from new.session_id and old.series_id is not distinct from new.series_id
        and old.starts_at = new.starts_at and old.ends_at = new.ends_at and old.places = new.places then
        return new;
      end if;
      if new.series_id is not null then
        with d as (
          select x.id, (case when holds and x.starts_at >= new.starts_at then new.places else 0 end)
                     - (case when was and x.starts_at >= old.starts_at then old.places else 0 end) as delta
          from sessions x
          where x.series_id = new.series_id and x.state <> 'removed'
            and x.starts_at >= least(case when holds then new.starts_at end, case when was then old.starts_at end)
        ), u as (
          update sessions x set booked = x.booked + d.delta from d where x.id = d.id and d.delta <> 0
          returning x.state, x.starts_at, x.booked, x.cap, d.delta
        )
        select * into bad from u where delta > 0 and booked > cap and state = 'scheduled' order by starts_at limit 1;
        if found then
          perform booking_refused('sold_out', format('not enough places left in the course time at %s', bad.starts_at));
        end if;
      elsif new.session_id is not null or (was and old.session_id is not null) then
        with d as (
          select x.id, (case when holds and x.id = new.session_id then new.places else 0 end)
                     - (case when was and x.id = old.session_id then old.places else 0 end) as delta
          from sessions x
          where x.id = new.session_id or (was and x.id = old.session_id)
        ), u as (
          update sessions x set booked = x.booked + d.delta from d where x.id = d.id and d.delta <> 0
          returning x.id, x.offering_id, x.state, x.starts_at, x.ends_at, x.booked, x.cap, d.delta
        )
        select h.hit, z.state, z.starts_at, z.booked, z.cap into bad
          from (select count(*)::int as hit from u where u.id = new.session_id and u.offering_id = new.offering_id) h
          left join lateral (select * from u where u.delta > 0 and (u.state <> 'scheduled' or u.starts_at <> new.starts_at
            or u.ends_at <> new.ends_at or u.booked > u.cap) limit 1) z on true;
        if bad.state is not null then
          if bad.booked > bad.cap and bad.state = 'scheduled' and bad.starts_at = new.starts_at then
            perform booking_refused('sold_out', 'not enough places left at this time');
          end if;
          perform booking_refused('time_not_available', 'this time is no longer available');
        end if;
        -- The places went to the new time's row: no row, or one of another offering, and the time is not there.
        if holds and new_time and bad.hit = 0 then
          perform booking_refused('time_not_available', 'this time is no longer available');
        end if;
      elsif holds and (not was or old.starts_at <> new.starts_at or old.ends_at <> new.ends_at or new.places > old.places) then
        select o.capacity, make_interval(mins => o.buffer_minutes) into lim, pad from offerings o where o.id = new.offering_id for update;
        if not found then
          perform booking_refused('time_not_available', 'this offering is not there');
        end if;
        with near as (
          select b.starts_at - pad as opens, b.ends_at + pad as closes, b.places from bookings b
          where b.offering_id = new.offering_id and b.keeps_place and b.session_id is null and b.series_id is null
            and b.status <> 'cancelled' and b.id <> new.id
            and tstzrange(b.starts_at, b.ends_at) && tstzrange(new.starts_at - pad, new.ends_at + pad)
        )
        select coalesce(max(q.load), 0) into peak from (
          select (select coalesce(sum(n.places), 0) from near n where n.opens <= p.at and n.closes > p.at) as load
          from (select new.starts_at as at union all select n.opens from near n where n.opens > new.starts_at and n.opens < new.ends_at) p
        ) q;
        if peak + new.places > lim then
          perform booking_refused('sold_out', 'not enough places left at this time');
        end if;
      end if;
      return new;
    end $$;
  `)
})
