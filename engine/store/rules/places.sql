-- Places told to every instance: when a commit fills a time, changes the places taken of a full time (or one that was
-- full), or changes a time's capacity, state or start, every
-- instance listening on session_places hears the time as that commit left it (the booking path's in-memory gate,
-- engine/services/bookings/gate.ts). A constraint trigger deferred to commit reads the row once the transaction's
-- changes are all in (a booking's own hold included), and NOTIFY reaches listeners only if the commit happens, in
-- commit order. The payload: "<id> <booked> <cap> <state> <starts at, epoch ms> <first hold's expiry, epoch ms or ->",
-- the expiry read only when the time has no place left (when it is the only thing that can give one back by itself).
-- A hold's expiry that changes (confirmed, extended, given up) tells its time again. An offering changed says
-- "o:<offering id>": what instances remember of its times is forgotten.
-- Only a full time is refused from memory (gate.ts, isFull), so a booking that leaves a time short of full tells no
-- one: its NOTIFY (a lock every notifying commit of the cluster takes in turn, and a trigger run at commit) cost 0.68x
-- to 0.83x the bookings a second without it (bench/README.md). A time's last place taken, and every change while it is
-- full or as it stops being full, is told; what an instance remembers of a time short of full may be behind, and
-- nothing refuses on it.

CREATE OR REPLACE FUNCTION public.session_places(sid uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
    select s.id || ' ' || s.booked || ' ' || s.cap || ' ' || s.state || ' '
      || (extract(epoch from s.starts_at) * 1000)::bigint || ' '
      || coalesce((extract(epoch from case when s.booked >= s.cap then least(
           (select min(b.expires_at) from bookings b
             where b.session_id = s.id and b.series_id is null and b.status = 'held' and b.keeps_place),
           (select min(b.expires_at) from bookings b
             where s.series_id is not null and b.series_id = s.series_id and b.starts_at <= s.starts_at
               and b.status = 'held' and b.keeps_place)) end) * 1000)::bigint::text, '-')
    from sessions s where s.id = sid
  $function$;

CREATE OR REPLACE FUNCTION public.session_places_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_notify('session_places', session_places(new.id));
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION public.booking_places_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      -- The first hold's expiry is told only of a full time (the payload's last field, what can give a place back).
      if exists (select 1 from sessions s where s.id = new.session_id and s.booked >= s.cap) then
        perform pg_notify('session_places', session_places(new.session_id));
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION public.offering_places_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_notify('session_places', 'o:' || new.id);
      return null;
    end $function$;

DROP TRIGGER IF EXISTS session_places_notify ON public.sessions;
CREATE CONSTRAINT TRIGGER session_places_notify AFTER UPDATE ON public.sessions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN ((old.booked IS DISTINCT FROM new.booked AND (old.booked >= old.cap OR new.booked >= new.cap))
    OR old.cap IS DISTINCT FROM new.cap OR old.state IS DISTINCT FROM new.state
    OR old.starts_at IS DISTINCT FROM new.starts_at OR old.ends_at IS DISTINCT FROM new.ends_at)
  EXECUTE FUNCTION session_places_notify();

DROP TRIGGER IF EXISTS booking_places_notify ON public.bookings;
CREATE CONSTRAINT TRIGGER booking_places_notify AFTER UPDATE OF expires_at ON public.bookings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (old.expires_at IS DISTINCT FROM new.expires_at AND new.session_id IS NOT NULL)
  EXECUTE FUNCTION booking_places_notify();

CREATE OR REPLACE TRIGGER offering_places_notify AFTER UPDATE ON public.offerings
  FOR EACH ROW
  EXECUTE FUNCTION offering_places_notify();
