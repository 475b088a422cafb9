import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The deployment: one row naming this database's events on a bus other deployments may share. Event ids are counted
 * per database, so Nats-Msg-Id is `<deployment>:<event id>`; with the bare id, a second database's events 1, 2, ...
 * were dropped by JetStream as duplicates of the first's. The row remembers where it was made, deployment_origin(): the
 * cluster (system identifier), its WAL timeline and the database's oid. A copy that differs in one of them (a dump
 * restored on another server or as another database, CREATE DATABASE ... TEMPLATE, a point-in-time recovery or a
 * promoted replica, which start a new timeline) takes an id of its own on start (engine/store/deployment.ts). A part
 * the role may not read counts as empty, the same on every start.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create function deployment_origin() returns text language plpgsql volatile as $$
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
    end $$;

    create table deployment (
      one boolean primary key default true check (one),
      id uuid not null default gen_random_uuid(),
      origin text not null default deployment_origin(),
      created_at timestamptz not null default now()
    );
    insert into deployment default values;
  `)
})
