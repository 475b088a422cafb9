-- Keys told to every instance: each instance keeps the API keys (and OAuth access tokens) it resolved lately in memory
-- (engine/services/orgKeyCache.ts), so a change to what a key resolves to is a notice on api_keys_changed, sent by the
-- change's own transaction (NOTIFY reaches listeners only if, and when, it commits): "key:<api key id>" (revoked, or
-- another kind or owner), "org:<org id>" (the org's settings, or a member's role or membership: a key carries its
-- member's role), "app:<oauth app id>" (an app or one of its tokens revoked). Whoever writes the row, the engine or
-- someone with SQL. The instance that made the change also forgets at once, before it answers.

CREATE OR REPLACE FUNCTION public.api_keys_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      r record;
    begin
      if tg_op = 'DELETE' then
        r := old;
      else
        r := new;
      end if;
      if tg_table_name = 'api_keys' then
        perform pg_notify('api_keys_changed', 'key:' || r.id);
      elsif tg_table_name = 'orgs' then
        perform pg_notify('api_keys_changed', 'org:' || r.id);
      elsif tg_table_name = 'members' then
        perform pg_notify('api_keys_changed', 'org:' || r.org_id);
      elsif tg_table_name = 'oauth_apps' then
        perform pg_notify('api_keys_changed', 'app:' || r.id);
      elsif tg_table_name = 'oauth_tokens' then
        perform pg_notify('api_keys_changed', 'app:' || r.app_id);
      end if;
      return null;
    end $function$;

CREATE OR REPLACE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON public.api_keys
  FOR EACH ROW
  EXECUTE FUNCTION api_keys_changed();

CREATE OR REPLACE TRIGGER orgs_keys_changed AFTER UPDATE ON public.orgs
  FOR EACH ROW
  EXECUTE FUNCTION api_keys_changed();

CREATE OR REPLACE TRIGGER members_keys_changed AFTER UPDATE OR DELETE ON public.members
  FOR EACH ROW
  EXECUTE FUNCTION api_keys_changed();

CREATE OR REPLACE TRIGGER oauth_apps_keys_changed AFTER UPDATE ON public.oauth_apps
  FOR EACH ROW
  EXECUTE FUNCTION api_keys_changed();

CREATE OR REPLACE TRIGGER oauth_tokens_keys_changed AFTER UPDATE OF revoked_at ON public.oauth_tokens
  FOR EACH ROW
  WHEN (old.revoked_at IS DISTINCT FROM new.revoked_at)
  EXECUTE FUNCTION api_keys_changed();
