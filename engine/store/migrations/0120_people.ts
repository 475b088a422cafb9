import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * People who sign in (docs/auth.md): a user is an email; their orgs and roles are the team's members rows with that
 * email. Mailed one-time sign-in links, browser sessions and passkeys, each secret stored as a SHA-256 hash only.
 * WebAuthn challenges live until used or five minutes old. A webhook endpoint made from a session has no API key.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table users (
      id uuid primary key,
      email text not null,
      name text,
      created_at timestamptz not null
    );
    create unique index users_email on users (lower(email));
    create table sign_in_links (
      id uuid primary key,
      token_hash text not null unique,
      nonce_hash text not null,
      email text not null,
      invite_id uuid,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index sign_in_links_email on sign_in_links (lower(email), created_at);
    create table auth_sessions (
      id uuid primary key,
      user_id uuid not null references users(id),
      token_hash text not null unique,
      csrf_token text not null,
      org_id uuid references orgs(id),
      user_agent text,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz
    );
    create index auth_sessions_user on auth_sessions (user_id) where ended_at is null;
    create table passkeys (
      id uuid primary key,
      user_id uuid not null references users(id),
      credential_id text not null unique,
      public_key text not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      name text,
      created_at timestamptz not null,
      last_used_at timestamptz,
      removed_at timestamptz
    );
    create index passkeys_user on passkeys (user_id) where removed_at is null;
    create table webauthn_challenges (
      id uuid primary key,
      holder_hash text not null unique,
      challenge text not null,
      kind text not null check (kind in ('register', 'sign_in')),
      user_id uuid references users(id),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    alter table webhook_endpoints alter column api_key_id drop not null;
  `)
})
