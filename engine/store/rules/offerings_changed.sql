-- Offerings told to every instance: each instance keeps the offerings it read lately for GET /offerings/{id}
-- (engine/services/offerings/reads.ts), so every change to an offering's row is a notice on offerings_changed with its
-- id, sent by the change's own transaction (NOTIFY reaches listeners only if, and when, it commits), whoever writes it.
-- The instance that made the change also forgets at once, before it answers.

CREATE OR REPLACE FUNCTION public.offerings_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_notify('offerings_changed', new.id::text);
      return null;
    end $function$;

CREATE OR REPLACE TRIGGER offerings_changed AFTER UPDATE ON public.offerings
  FOR EACH ROW
  EXECUTE FUNCTION offerings_changed();
