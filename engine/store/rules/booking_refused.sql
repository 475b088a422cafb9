-- A refusal the booking rules raise: check_violation named for the error code the API answers (409 sold_out, ...).

CREATE OR REPLACE FUNCTION public.booking_refused(reason text, detail text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception '%', detail using errcode = 'check_violation', constraint = reason;
    end $function$;
