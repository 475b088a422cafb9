import { createHash, randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Forbidden, InviteExists, InviteExpired, LastOwner, MemberExists, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { orgName, revokeKeysOf } from "../../store/orgs.ts"
import { sessionStore } from "../../store/sessions.ts"
import {
  acceptInvite,
  endInvite as endInviteRow,
  endLapsedInvites,
  type InviteRow,
  insertInvite,
  insertMember,
  isMember,
  lockInvite,
  lockInviteByToken,
  lockMembers as lockMemberRows,
  type MemberRow,
  membersOf,
  removeMember,
  setMember,
  waitingInvites
} from "../../store/team.ts"
import { transaction } from "../../store/transaction.ts"
import { webhookStore } from "../../store/webhooks.ts"
import { fn, traced } from "../../tracing.ts"
import type { Role } from "../CurrentOrg.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Mail } from "../mail/Mail.ts"
import { Orgs } from "../Orgs.ts"

/** An invite link works this long. */
export const INVITE_DAYS = 7
const DAY_MS = 86_400_000

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex")

const toInvite = (r: InviteRow) => ({
  id: r.id,
  email: r.email,
  role: r.role,
  invited_by: r.invited_by,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString()
})
const toMember = (r: MemberRow) => ({ user_id: r.user_id, email: r.email, name: r.name, role: r.role })

/**
 * team.* and invites.*: who is on an org's team, invites by email, roles and removal. Only an owner's key may change
 * the team (403 forbidden for staff); the last owner can be neither removed nor made staff (409 last_owner).
 */
export class Team extends Effect.Service<Team>()("Team", {
  dependencies: [Events.Default, Mail.Default, Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const times = sessionStore(sql)
    const hooks = webhookStore(sql)
    const clock = yield* EngineClock
    const events = yield* Events
    const mail = yield* Mail
    const orgs = yield* Orgs
    const links = yield* Links

    const ownerOnly = Effect.flatMap(CurrentOrg, (org) =>
      org.role === "owner"
        ? Effect.succeed(org)
        : Effect.fail(new Forbidden({ message: "only an owner's API key may change the team" }))
    )
    const tx = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))

    const list = Effect.gen(function* () {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      const members = yield* membersOf(sql, org.id).pipe(Effect.orDie)
      const invites = yield* waitingInvites(sql, org.id, now).pipe(Effect.orDie)
      return { data: members.map(toMember), invites: invites.map(toInvite) }
    }).pipe(traced("Team.list"))

    const invite = fn("Team.invite")(function* (input: { email: string; role: Role }) {
      const org = yield* ownerOnly
      const now = yield* clock.now
      const email = input.email.trim().toLowerCase()
      const token = `inv_${randomBytes(24).toString("base64url")}`
      return yield* tx(
        Effect.gen(function* () {
          if (yield* isMember(sql, org.id, email))
            return yield* new MemberExists({ message: `${email} is already on the team` })
          if (yield* endLapsedInvites(sql, org.id, email, now))
            return yield* new InviteExists({ message: `${email} has a waiting invite; revoke it to send a new one` })
          const row: InviteRow = {
            id: randomUUID(),
            org_id: org.id,
            email,
            role: input.role,
            invited_by: org.userId ?? null,
            created_at: now,
            expires_at: new Date(now.getTime() + INVITE_DAYS * DAY_MS),
            accepted_at: null,
            ended_at: null
          }
          // Another invite for the address may be committing now, unseen by the check above: the waiting-invite index
          // decides (invites_waiting); the loser waits for the winner and answers as if it had seen it.
          if (!(yield* insertInvite(sql, { ...row, token_hash: hashToken(token) })))
            return yield* new InviteExists({ message: `${email} has a waiting invite; revoke it to send a new one` })
          const name = yield* orgName(sql, org.id)
          yield* mail.enqueue(org.id, {
            to: email,
            kind: "member.invited",
            subject: `You are invited to join ${name}`,
            text:
              `You are invited to join the team of ${name} as ${input.role}.\n\n` +
              `Join and sign in: ${links.publicUrl}/auth/v1/invites/${token}\n\n` +
              `With the API, accept: POST ${links.publicUrl}/api/v1/invites/${token}/accept (optionally with {"name": "Your name"})\n` +
              `Decline: POST ${links.publicUrl}/api/v1/invites/${token}/decline\n\nThe invite works until ${row.expires_at.toISOString()}.`
          })
          yield* events.append(org.id, [
            { type: "member.invited", data: { id: row.id, email, role: row.role, invited_by: row.invited_by } }
          ])
          return toInvite(row)
        })
      )
    })

    const endInvite = (row: InviteRow, reason: "revoked" | "declined") =>
      Effect.gen(function* () {
        yield* endInviteRow(sql, row.id, reason, yield* clock.now)
        yield* events.append(row.org_id, [
          { type: "member.invite_revoked", data: { id: row.id, email: row.email, role: row.role } }
        ])
        return toInvite(row)
      })

    const revokeInvite = fn("Team.revokeInvite")(function* (id: string) {
      const org = yield* ownerOnly
      return yield* tx(
        Effect.gen(function* () {
          const row = yield* lockInvite(sql, org.id, id)
          if (row === undefined) return yield* notFound("invite")
          return yield* endInvite(row, "revoked")
        })
      )
    })

    /** The invite behind a token, locked: unknown, used or ended is 404; past its time is 409 invite_expired. */
    const byToken = (token: string) =>
      Effect.gen(function* () {
        const row = yield* lockInviteByToken(sql, hashToken(token))
        if (row === undefined) return yield* notFound("invite")
        if (row.expires_at.getTime() <= (yield* clock.now).getTime())
          return yield* new InviteExpired({ message: "this invite has expired; ask an owner for a new one" })
        return row
      })

    const accept = fn("Invites.accept")(function* (token: string, input: { name?: string | undefined }) {
      const now = yield* clock.now
      return yield* tx(
        Effect.gen(function* () {
          const invite = yield* byToken(token)
          if (yield* isMember(sql, invite.org_id, invite.email))
            return yield* new MemberExists({ message: `${invite.email} is already on the team` })
          const member = {
            user_id: randomUUID(),
            org_id: invite.org_id,
            email: invite.email,
            name: input.name ?? null,
            role: invite.role,
            created_at: now
          }
          // A member added another way at the same moment (the admin API) is decided by members_org_email, as above.
          if (!(yield* insertMember(sql, member)))
            return yield* new MemberExists({ message: `${invite.email} is already on the team` })
          yield* acceptInvite(sql, invite.id, now)
          yield* events.append(invite.org_id, [
            {
              type: "member.joined",
              data: { user_id: member.user_id, email: member.email, role: member.role, invite_id: invite.id }
            }
          ])
          return toMember(member)
        })
      )
    })

    const decline = fn("Invites.decline")(function* (token: string) {
      return yield* tx(Effect.flatMap(byToken(token), (row) => endInvite(row, "declined")))
    })

    const lockMembers = (orgId: string) => lockMemberRows(sql, orgId)

    const update = fn("Team.update")(function* (
      userId: string,
      patch: { role?: Role | undefined; name?: string | undefined }
    ) {
      const org = yield* ownerOnly
      const result = yield* tx(
        Effect.gen(function* () {
          const members = yield* lockMembers(org.id)
          const member = members.find((m) => m.user_id === userId)
          if (member === undefined) return yield* notFound("member")
          if (
            patch.role === "staff" &&
            member.role === "owner" &&
            members.filter((m) => m.role === "owner").length === 1
          ) {
            return yield* new LastOwner({
              message: "the team's last owner cannot be made staff: make someone else an owner first"
            })
          }
          const next = { ...member, role: patch.role ?? member.role, name: patch.name ?? member.name }
          yield* setMember(sql, userId, next.role, next.name)
          const out = []
          if (next.role !== member.role)
            out.push({ type: "member.updated", data: { user_id: userId, email: member.email, role: next.role } })
          if (next.name !== member.name)
            out.push({ type: "member.updated", data: { user_id: userId, email: member.email, name: next.name } })
          yield* events.append(org.id, out)
          return { member: toMember(next), roleChanged: next.role !== member.role }
        })
      )
      // The member's keys carry the new role at once, on every instance.
      if (result.roleChanged) yield* orgs.keysChanged(`org:${org.id}`)
      return result.member
    })

    /** Off the team: their keys are revoked (and the webhooks those made switch off), their times keep no teacher. */
    const remove = fn("Team.remove")(function* (userId: string) {
      const org = yield* ownerOnly
      const now = yield* clock.now
      const removed = yield* tx(
        Effect.gen(function* () {
          const members = yield* lockMembers(org.id)
          const member = members.find((m) => m.user_id === userId)
          if (member === undefined) return yield* notFound("member")
          if (member.role === "owner" && members.filter((m) => m.role === "owner").length === 1) {
            return yield* new LastOwner({ message: "the team's last owner cannot be removed" })
          }
          yield* removeMember(sql, userId, now)
          const keys = yield* revokeKeysOf(sql, userId, now)
          for (const k of keys) yield* hooks.switchOffForKey(k.id, now)
          yield* times.clearTeacher(userId)
          yield* events.append(org.id, [
            { type: "member.removed", data: { user_id: userId, email: member.email, role: member.role } }
          ])
          return toMember(member)
        })
      )
      yield* orgs.keysChanged(`org:${org.id}`)
      return removed
    })

    return { list, invite, revokeInvite, accept, decline, update, remove } as const
  })
}) {}
