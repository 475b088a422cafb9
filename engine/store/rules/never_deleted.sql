-- Rows that bookings point at are never deleted: they are marked (removed, paused, erased) instead.

CREATE OR REPLACE FUNCTION public.never_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception 'rows of % are never deleted (bookings point at them): mark them instead', tg_table_name
        using errcode = 'restrict_violation';
    end $function$;

CREATE OR REPLACE TRIGGER customers_never_deleted BEFORE DELETE ON public.customers
  FOR EACH STATEMENT
  EXECUTE FUNCTION never_deleted();

CREATE OR REPLACE TRIGGER offerings_never_deleted BEFORE DELETE ON public.offerings
  FOR EACH STATEMENT
  EXECUTE FUNCTION never_deleted();

CREATE OR REPLACE TRIGGER orgs_never_deleted BEFORE DELETE ON public.orgs
  FOR EACH STATEMENT
  EXECUTE FUNCTION never_deleted();

CREATE OR REPLACE TRIGGER series_never_deleted BEFORE DELETE ON public.series
  FOR EACH STATEMENT
  EXECUTE FUNCTION never_deleted();

CREATE OR REPLACE TRIGGER sessions_never_deleted BEFORE DELETE ON public.sessions
  FOR EACH STATEMENT
  EXECUTE FUNCTION never_deleted();
