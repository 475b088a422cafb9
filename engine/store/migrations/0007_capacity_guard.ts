import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The database's own backstop for calendar times: at commit, the confirmed places on a time never exceed
 * its capacity (seats for a class, including course seats; bookings for an appointment). The engine
 * decides capacity first under the session lock and also counts live holds; this guard only ever fires
 * if that logic were wrong, and then the whole transaction fails instead of overselling.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create function session_over_capacity(sid uuid) returns boolean language sql stable as $$
      select case when o.kind = 'appointment'
        then (select count(*) from bookings b where b.session_id = s.id and b.status = 'confirmed' and b.keeps_place)
        else coalesce((select sum(b.quantity) from bookings b where b.session_id = s.id and b.series_id is null
                         and b.status = 'confirmed' and b.keeps_place), 0)
           + coalesce((select sum(b.quantity) from bookings b where s.series_id is not null and b.series_id = s.series_id
                         and b.starts_at <= s.starts_at and b.status = 'confirmed' and b.keeps_place), 0)
        end > coalesce(s.capacity, o.capacity)
      from sessions s join offerings o on o.id = s.offering_id where s.id = sid
    $$;
    create function bookings_capacity_guard() returns trigger language plpgsql as $$
    begin
      if new.status <> 'confirmed' or not new.keeps_place or new.session_id is null then return null; end if;
      if new.series_id is null then
        if session_over_capacity(new.session_id) then
          raise exception 'capacity exceeded on session %', new.session_id using errcode = 'check_violation';
        end if;
      elsif exists (select 1 from sessions s where s.series_id = new.series_id and s.starts_at >= new.starts_at
                      and s.state = 'scheduled' and session_over_capacity(s.id)) then
        raise exception 'capacity exceeded in course %', new.series_id using errcode = 'check_violation';
      end if;
      return null;
    end $$;
    create constraint trigger bookings_capacity after insert or update of status, keeps_place, session_id, quantity, starts_at
      on bookings deferrable initially deferred for each row execute function bookings_capacity_guard();
  `)
})
