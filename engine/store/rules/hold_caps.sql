-- Hold caps (org settings max_guest_holds and max_held_percent): how many unpaid holds one guest may keep, and how
-- much of a time guests finishing their booking may hold, for holds from the widget and the assistant.

CREATE OR REPLACE FUNCTION public.booking_hold_caps()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
    end $function$;

CREATE OR REPLACE TRIGGER booking_hold_caps AFTER INSERT ON public.bookings
  FOR EACH ROW
  WHEN (((new.status = 'held'::text) AND (new.source = ANY (ARRAY['widget'::text, 'assistant'::text]))))
  EXECUTE FUNCTION booking_hold_caps();
