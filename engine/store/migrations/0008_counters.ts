import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Capacity as counters the database keeps, instead of sums under a lock and again at commit.
 *
 * - `sessions.cap` is a time's seats (its own capacity, else its offering's), kept by triggers when either changes.
 * - `sessions.booked` is the places its live bookings take: a booking of the time (`places`: seats for a class, 1
 *   for an appointment) plus every course booking holding a seat in it (a course booking holds one in each time of
 *   its entry from its own start, a cancelled time included until the booking moves past it). A booking holds places while `keeps_place` and not cancelled, so a hold counts
 *   until the lapse job marks it lapsed.
 * - `bookings_places` keeps `booked` in the statement that changes a booking, whatever the operation (create,
 *   confirm, lapse, move, cancel, a time cancelled), and refuses a change that gains places where there is no room:
 *   `sold_out` (the count would pass `cap`), `time_not_available` (the time is not scheduled, or no longer at the
 *   booking's times). Rentals and appointments on weekly hours have no time rows: the trigger takes the offering's
 *   row lock and measures the peak over the bookings that overlap the new one (a GiST range index), so the check
 *   does not grow with the bookings on record.
 * - `booking_quota.quota` with `used <= quota` refuses the booking past the plan's monthly quota in the same statement.
 * - `org_events` is the org's event clock: writers of an org's events update its row (the row lock orders them, held
 *   to commit, so ids follow commit order within the org) and stamp their events with its `last_at`, which never
 *   goes down. It replaces the advisory lock and the clock read under it: both now happen in the insert's statement.
 *
 * The refusals are raised as check_violation with the reason as the constraint name, for the engine to map.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create extension if not exists btree_gist;

    drop trigger if exists bookings_capacity on bookings;
    drop function if exists bookings_capacity_guard();
    drop function if exists session_over_capacity(uuid);

    alter table bookings add column places integer;
    update bookings b set places = case when o.kind = 'appointment' then 1 else b.quantity end from offerings o where o.id = b.offering_id;
    alter table bookings alter column places set not null, add check (places between 1 and 10000);

    alter table sessions add column cap integer, add column booked integer not null default 0;
    update sessions s set cap = coalesce(s.capacity, o.capacity) from offerings o where o.id = s.offering_id;
    update sessions s set booked =
        coalesce((select sum(b.places) from bookings b where b.session_id = s.id and b.series_id is null
          and b.keeps_place and b.status <> 'cancelled'), 0)
      + coalesce((select sum(b.places) from bookings b where s.series_id is not null and b.series_id = s.series_id
          and b.starts_at <= s.starts_at and b.keeps_place and b.status <> 'cancelled'), 0);
    alter table sessions alter column cap set not null, add check (booked >= 0);

    alter table booking_quota add column quota integer not null default 2147483647;
    alter table booking_quota add constraint plan_quota_exceeded check (used <= quota);

    create table org_events (org_id uuid primary key, last_at timestamptz not null);
    insert into org_events (org_id, last_at) select org_id, max(created_at) from events group by org_id;

    create index bookings_live_during on bookings using gist (offering_id, tstzrange(starts_at, ends_at))
      where keeps_place and session_id is null and series_id is null;

    create function sessions_cap() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.capacity is distinct from old.capacity then
        new.cap := coalesce(new.capacity, (select capacity from offerings where id = new.offering_id));
      end if;
      if tg_op = 'INSERT' and new.series_id is not null then
        new.booked := coalesce((select sum(places) from bookings where series_id = new.series_id
          and starts_at <= new.starts_at and keeps_place and status <> 'cancelled'), 0);
      end if;
      return new;
    end $$;
    create trigger sessions_cap before insert or update of capacity on sessions for each row execute function sessions_cap();

    create function offerings_cap() returns trigger language plpgsql as $$
    begin
      update sessions set cap = new.capacity where offering_id = new.id and capacity is null and state <> 'removed';
      return null;
    end $$;
    create trigger offerings_cap after update of capacity on offerings for each row
      when (old.capacity is distinct from new.capacity) execute function offerings_cap();

    create function booking_refused(reason text, detail text) returns void language plpgsql as $$
    begin
      raise exception '%', detail using errcode = 'check_violation', constraint = reason;
    end $$;

    -- Places of the booking's times: sessions gain new.places where the new row holds them, lose old.places where
    -- the old row held them; one update per time with the net change.
    create function booking_places() returns trigger language plpgsql as $$
    declare
      was boolean := tg_op = 'UPDATE' and old.keeps_place and old.status <> 'cancelled';
      holds boolean := new.keeps_place and new.status <> 'cancelled';
      bad record;
      lim integer;
      pad interval;
      peak integer;
    begin
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
          returning x.state, x.starts_at, x.ends_at, x.booked, x.cap, d.delta
        )
        select * into bad from u where delta > 0 and (state <> 'scheduled' or starts_at <> new.starts_at
          or ends_at <> new.ends_at or booked > cap) limit 1;
        if found then
          if bad.booked > bad.cap and bad.state = 'scheduled' and bad.starts_at = new.starts_at then
            perform booking_refused('sold_out', 'not enough places left at this time');
          end if;
          perform booking_refused('time_not_available', 'this time is no longer available');
        end if;
      elsif holds and (not was or old.starts_at <> new.starts_at or old.ends_at <> new.ends_at or new.places > old.places) then
        select o.capacity, make_interval(mins => o.buffer_minutes) into lim, pad from offerings o where o.id = new.offering_id for update;
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
    -- BEFORE, not AFTER: an AFTER trigger of an insert in a WITH clause fires only once the whole statement is done,
    -- so the time's row would be locked after the org's event row, against the lock order (times, then org events).
    create trigger booking_places before insert or update of keeps_place, status, session_id, series_id, starts_at, ends_at, places
      on bookings for each row execute function booking_places();
  `)
})
