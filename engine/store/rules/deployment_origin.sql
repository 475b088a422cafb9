-- Where this database was made: a copy or a restore has another origin and so becomes a deployment of its own
-- (engine/store/deployment.ts; Nats-Msg-Id is <deployment>:<event id>).

CREATE OR REPLACE FUNCTION public.deployment_origin()
 RETURNS text
 LANGUAGE plpgsql
AS $function$
    declare
      cluster text := '';
      timeline text := '';
    begin
      begin
        select system_identifier::text into cluster from pg_control_system();
      exception when others then cluster := '';
      end;
      begin
        timeline := substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8);
      exception when others then timeline := '';
      end;
      return concat_ws('/', cluster, timeline, (select oid from pg_database where datname = current_database()));
    end $function$;
