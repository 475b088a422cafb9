import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Tables `members` and `invites`: who is on an org's team and who is asked to join. This store is their only writer:
 * the team service invites, accepts, changes roles and removes; the admin API adds a member through `insertMember`.
 * Two members of one address, or two waiting invites, are refused by the unique indexes (members_org_email,
 * invites_waiting): the insert answers no row.
 */

export type TeamRole = "owner" | "staff"

export type MemberRow = {
  readonly user_id: string
  readonly email: string
  readonly name: string | null
  readonly role: TeamRole
}

export type InviteRow = {
  readonly id: string
  readonly org_id: string
  readonly email: string
  readonly role: TeamRole
  readonly invited_by: string | null
  readonly created_at: Date
  readonly expires_at: Date
  readonly accepted_at: Date | null
  readonly ended_at: Date | null
}

/** A team member by user id, or nothing. */
export const memberById = (sql: SqlClient.SqlClient, orgId: string, userId: string) =>
  sql<MemberRow>`
    select user_id, email, name, role from members where org_id = ${orgId} and user_id = ${userId}::uuid and removed_at is null`.pipe(
    Effect.map((rows) => rows[0] as MemberRow | undefined)
  )

/** Whether the address is on the org's team (in any case). */
export const isMember = (sql: SqlClient.SqlClient, orgId: string, email: string) =>
  sql`select user_id from members where org_id = ${orgId} and lower(email) = lower(${email}) and removed_at is null`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** The org's members, oldest first. */
export const membersOf = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<MemberRow>`select user_id, email, name, role from members
    where org_id = ${orgId} and removed_at is null order by created_at`

/** The org's current members, locked: whoever changes roles or removes someone sees the final count of owners. */
export const lockMembers = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<MemberRow>`select user_id, email, name, role from members where org_id = ${orgId} and removed_at is null order by user_id for update`

/** A new member; false when the address is on the team already. */
export const insertMember = (sql: SqlClient.SqlClient, member: MemberRow & { org_id: string; created_at: Date }) =>
  sql`insert into members ${sql.insert(member)} on conflict (org_id, lower(email)) where removed_at is null do nothing returning user_id`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** Every team an address is on (its live member rows, with their org), locked: a person's own name goes to each. */
export const lockMembersByEmail = (sql: SqlClient.SqlClient, email: string) =>
  sql<MemberRow & { readonly org_id: string }>`select org_id, user_id, email, name, role from members
    where lower(email) = lower(${email}) and removed_at is null order by org_id for update`

export const setMember = (sql: SqlClient.SqlClient, userId: string, role: TeamRole, name: string | null) =>
  sql`update members set role = ${role}, name = ${name} where user_id = ${userId}`.pipe(Effect.asVoid)

export const removeMember = (sql: SqlClient.SqlClient, userId: string, now: Date) =>
  sql`update members set removed_at = ${now} where user_id = ${userId}`.pipe(Effect.asVoid)

/** The org's waiting invites, oldest first. */
export const waitingInvites = (sql: SqlClient.SqlClient, orgId: string, now: Date) =>
  sql<InviteRow>`select * from invites
    where org_id = ${orgId} and accepted_at is null and ended_at is null and expires_at > ${now} order by created_at, id`

/** The address's invites past their time ended as expired; answers whether one is still waiting. */
export const endLapsedInvites = (sql: SqlClient.SqlClient, orgId: string, email: string, now: Date) =>
  Effect.gen(function* () {
    yield* sql`update invites set ended_at = ${now}, end_reason = 'expired'
      where org_id = ${orgId} and lower(email) = ${email} and accepted_at is null and ended_at is null and expires_at <= ${now}`
    const waiting =
      yield* sql`select id from invites where org_id = ${orgId} and lower(email) = ${email} and accepted_at is null and ended_at is null`
    return waiting.length > 0
  })

/** A new invite; false when the address has one waiting (committed by another meanwhile). */
export const insertInvite = (sql: SqlClient.SqlClient, row: InviteRow & { token_hash: string }) =>
  sql`insert into invites ${sql.insert(row)}
    on conflict (org_id, lower(email)) where accepted_at is null and ended_at is null do nothing returning id`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** A waiting invite of the org, locked, or nothing. */
export const lockInvite = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<InviteRow>`select * from invites where org_id = ${orgId} and id = ${id} and accepted_at is null and ended_at is null for update`.pipe(
    Effect.map((rows) => rows[0] as InviteRow | undefined)
  )

/** The waiting invite behind a token's hash, locked, or nothing. */
export const lockInviteByToken = (sql: SqlClient.SqlClient, tokenHash: string) =>
  sql<InviteRow>`select * from invites where token_hash = ${tokenHash} and accepted_at is null and ended_at is null for update`.pipe(
    Effect.map((rows) => rows[0] as InviteRow | undefined)
  )

export const endInvite = (sql: SqlClient.SqlClient, id: string, reason: "revoked" | "declined", now: Date) =>
  sql`update invites set ended_at = ${now}, end_reason = ${reason} where id = ${id}`.pipe(Effect.asVoid)

export const acceptInvite = (sql: SqlClient.SqlClient, id: string, now: Date) =>
  sql`update invites set accepted_at = ${now} where id = ${id}`.pipe(Effect.asVoid)
