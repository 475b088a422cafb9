import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { mailForEachText } from "./mail.ts"

// The store of `sign_in_links`, `auth_sessions` and `webauthn_challenges`: the only code that writes them. Every
// secret here is a SHA-256 hash; the secrets themselves live only in the mail and the browser's cookies.

export interface LinkRow {
  readonly id: string
  readonly token_hash: string
  readonly nonce_hash: string
  readonly email: string
  readonly invite_id: string | null
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

export interface SessionRow {
  readonly id: string
  readonly user_id: string
  readonly token_hash: string
  readonly csrf_token: string
  readonly org_id: string | null
  readonly user_agent: string | null
  readonly created_at: Date
  readonly last_seen_at: Date
  readonly expires_at: Date
  readonly ended_at: Date | null
}

export interface ChallengeRow {
  readonly id: string
  readonly holder_hash: string
  readonly challenge: string
  readonly kind: "register" | "sign_in"
  readonly user_id: string | null
  readonly expires_at: Date
  readonly used_at: Date | null
}

/** What asking for a sign-in link writes: the link, and its mail if the email is on a team. */
export interface LinkRequest {
  readonly linkId: string
  readonly tokenHash: string
  readonly nonceHash: string
  readonly email: string
  readonly at: Date
  readonly expiresAt: Date
  readonly mailId: string
  readonly subject: string
  readonly body: string
}

/**
 * One statement, whether or not the email is on a team, so that the answer cannot tell: the email's first membership
 * (as users.memberships orders them); a link row, live and the email's for a member, else a throw-away one (no email,
 * expired as it is written, its token never sent); the mail with the link to the member's first org, else none.
 */
const REQUEST_LINK = `with member as (
      select m.org_id from members m join orgs o on o.id = m.org_id
      where lower(m.email) = lower($4::text) and m.removed_at is null
      order by m.created_at, o.name, m.org_id limit 1
    ), known as (
      select exists (select 1 from member) as yes
    ), link as (
      insert into sign_in_links (id, token_hash, nonce_hash, email, invite_id, created_at, expires_at)
      select $1::uuid, $2::text, $3::text, case when known.yes then $4::text else '' end, null, $5::timestamptz,
        case when known.yes then $6::timestamptz else $5::timestamptz end
      from known
      returning id
    ), ${mailForEachText("member", {
      id: "$7::uuid",
      to: "$4::text",
      subject: "$8::text",
      body: "$9::text",
      kind: "'auth.sign_in_link'",
      at: "$5::timestamptz"
    })}
    select (select count(*)::int from link) as links, (select count(*)::int from m) as mailed`

export const authSessionStore = (sql: SqlClient.SqlClient) => {
  const addLink = (row: Omit<LinkRow, "used_at">) =>
    sql`insert into sign_in_links ${sql.insert(row)}`.pipe(Effect.orDie, Effect.asVoid)
  /** Writes what asking for a link writes (REQUEST_LINK), in one statement: true when a mail went with it. */
  const requestLink = (r: LinkRequest) =>
    sql
      .unsafe<{ links: number; mailed: number }>(REQUEST_LINK, [
        r.linkId,
        r.tokenHash,
        r.nonceHash,
        r.email,
        r.at,
        r.expiresAt,
        r.mailId,
        r.subject,
        r.body
      ])
      .pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0]?.mailed === 1)
      )
  /** Takes a link: only one caller ever gets it, and only while it is live. */
  const takeLink = (tokenHash: string, nonceHash: string, at: Date) =>
    sql<LinkRow>`update sign_in_links set used_at = ${at}
      where token_hash = ${tokenHash} and nonce_hash = ${nonceHash} and used_at is null and expires_at > ${at} returning *`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )

  const addSession = (row: Omit<SessionRow, "ended_at">) =>
    sql`insert into auth_sessions ${sql.insert(row)}`.pipe(Effect.orDie, Effect.asVoid)
  /** A live session by its cookie's hash: not ended, within its absolute and idle expiry. */
  const live = (tokenHash: string, at: Date, idleMs: number) =>
    sql<SessionRow>`select * from auth_sessions where token_hash = ${tokenHash} and ended_at is null
      and expires_at > ${at} and last_seen_at > ${new Date(at.getTime() - idleMs)}`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )
  const seen = (id: string, at: Date) =>
    sql`update auth_sessions set last_seen_at = ${at} where id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
  const setOrg = (id: string, orgId: string | null) =>
    sql`update auth_sessions set org_id = ${orgId} where id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
  const end = (id: string, at: Date) =>
    sql`update auth_sessions set ended_at = ${at} where id = ${id} and ended_at is null`.pipe(
      Effect.orDie,
      Effect.asVoid
    )
  const endOne = (userId: string, id: string, at: Date) =>
    sql`update auth_sessions set ended_at = ${at} where id = ${id} and user_id = ${userId} and ended_at is null returning id`.pipe(
      Effect.orDie,
      Effect.map((r) => r.length === 1)
    )
  const endOthers = (userId: string, keep: string, at: Date) =>
    sql`update auth_sessions set ended_at = ${at} where user_id = ${userId} and id <> ${keep} and ended_at is null`.pipe(
      Effect.orDie,
      Effect.asVoid
    )
  const ofUser = (userId: string, at: Date, idleMs: number) =>
    sql<SessionRow>`select * from auth_sessions where user_id = ${userId} and ended_at is null and expires_at > ${at}
      and last_seen_at > ${new Date(at.getTime() - idleMs)} order by created_at, id`.pipe(Effect.orDie)

  const addChallenge = (row: Omit<ChallengeRow, "used_at">) =>
    sql`insert into webauthn_challenges ${sql.insert(row)}
      on conflict (holder_hash) do update set challenge = excluded.challenge, kind = excluded.kind,
        user_id = excluded.user_id, expires_at = excluded.expires_at, used_at = null`.pipe(Effect.orDie, Effect.asVoid)
  /** Takes a challenge once: a response can be verified against it a single time. */
  const takeChallenge = (holderHash: string, kind: ChallengeRow["kind"], at: Date) =>
    sql<ChallengeRow>`update webauthn_challenges set used_at = ${at}
      where holder_hash = ${holderHash} and kind = ${kind} and used_at is null and expires_at > ${at} returning *`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )

  return {
    addLink,
    requestLink,
    takeLink,
    addSession,
    live,
    seen,
    setOrg,
    end,
    endOne,
    endOthers,
    ofUser,
    addChallenge,
    takeChallenge
  }
}
