import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * OAuth 2.1 for MCP connector clients: registered clients (RFC 7591), an org's approval of a client (the "app", listed
 * and revocable by the org), one-time authorization codes with their PKCE challenge, and access and refresh tokens.
 * Codes and tokens are stored as sha256 hashes only; a token's family is the code it descends from.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table oauth_clients (
      id text primary key,
      client_name text not null,
      redirect_uris jsonb not null,
      client_uri text,
      secret_hash text,
      auth_method text not null check (auth_method in ('none', 'client_secret_post')),
      metadata jsonb not null,
      created_at timestamptz not null
    );
    create table oauth_apps (
      id uuid primary key,
      org_id uuid not null references orgs(id),
      client_id text not null references oauth_clients(id),
      api_key_id uuid not null references api_keys(id),
      created_at timestamptz not null,
      revoked_at timestamptz
    );
    create unique index oauth_apps_live on oauth_apps (org_id, client_id) where revoked_at is null;
    create table oauth_codes (
      hash text primary key,
      app_id uuid not null references oauth_apps(id),
      redirect_uri text not null,
      code_challenge text not null,
      resource text,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null
    );
    create table oauth_tokens (
      hash text primary key,
      kind text not null check (kind in ('access', 'refresh')),
      app_id uuid not null references oauth_apps(id),
      family text not null,
      resource text,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null
    );
    create index oauth_tokens_family on oauth_tokens (family);
    create index oauth_tokens_app on oauth_tokens (app_id);
  `)
})
