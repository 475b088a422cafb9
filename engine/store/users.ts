import { randomUUID } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

// The store of `users` and `passkeys`: the only code that writes them. A user is an email; the orgs they belong to
// and their roles there are the team's `members` rows with that email (engine/services/team).

export interface UserRow {
  readonly id: string
  readonly email: string
  readonly name: string | null
  readonly created_at: Date
}

export interface PasskeyRow {
  readonly id: string
  readonly user_id: string
  readonly credential_id: string
  readonly public_key: string
  readonly counter: number | string
  readonly transports: ReadonlyArray<string>
  readonly name: string | null
  readonly created_at: Date
  readonly last_used_at: Date | null
}

export interface Membership {
  readonly org_id: string
  readonly org_name: string
  readonly role: "owner" | "staff"
  readonly member_id: string
}

export const userStore = (sql: SqlClient.SqlClient) => {
  const byEmail = (email: string) =>
    sql<UserRow>`select * from users where lower(email) = lower(${email})`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )
  const byId = (id: string) =>
    sql<UserRow>`select * from users where id = ${id}`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )
  /** The user of an email, made on first sign-in (two at once: the unique index decides, both read the winner). */
  const findOrCreate = (email: string, name: string | null, at: Date) =>
    Effect.gen(function* () {
      const found = yield* byEmail(email)
      if (found !== undefined) return found
      yield* sql`insert into users ${sql.insert({ id: randomUUID(), email: email.toLowerCase(), name, created_at: at })}
        on conflict do nothing`.pipe(Effect.orDie)
      return (yield* byEmail(email))!
    })
  /** The orgs whose team has this email, with the role there: read at every request, so a change counts at once. */
  const memberships = (email: string) =>
    sql<Membership>`select m.org_id, o.name as org_name, m.role, m.user_id as member_id
      from members m join orgs o on o.id = m.org_id
      where lower(m.email) = lower(${email}) and m.removed_at is null order by m.created_at, o.name, m.org_id`.pipe(
      Effect.orDie
    )

  /** The person's own name (null to have none). */
  const setName = (id: string, name: string | null) =>
    sql`update users set name = ${name} where id = ${id}`.pipe(Effect.orDie, Effect.asVoid)

  const passkeys = (userId: string) =>
    sql<PasskeyRow>`select * from passkeys where user_id = ${userId} and removed_at is null order by created_at, id`.pipe(
      Effect.orDie
    )
  const passkeyByCredential = (credentialId: string) =>
    sql<PasskeyRow>`select * from passkeys where credential_id = ${credentialId} and removed_at is null`.pipe(
      Effect.orDie,
      Effect.map((r) => r[0])
    )
  const addPasskey = (row: Omit<PasskeyRow, "last_used_at" | "transports"> & { transports: ReadonlyArray<string> }) =>
    sql`insert into passkeys ${sql.insert({ ...row, transports: `{${row.transports.join(",")}}` })}
      on conflict (credential_id) do nothing returning id`.pipe(
      Effect.orDie,
      Effect.map((r) => r.length === 1)
    )
  const usedPasskey = (id: string, counter: number, at: Date) =>
    sql`update passkeys set counter = ${counter}, last_used_at = ${at} where id = ${id}`.pipe(
      Effect.orDie,
      Effect.asVoid
    )
  const removePasskey = (userId: string, id: string, at: Date) =>
    sql`update passkeys set removed_at = ${at} where id = ${id} and user_id = ${userId} and removed_at is null returning id`.pipe(
      Effect.orDie,
      Effect.map((r) => r.length === 1)
    )

  return {
    byEmail,
    byId,
    findOrCreate,
    memberships,
    setName,
    passkeys,
    passkeyByCredential,
    addPasskey,
    usedPasskey,
    removePasskey
  }
}
