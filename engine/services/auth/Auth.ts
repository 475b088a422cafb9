import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Forbidden, InvalidEmail } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { Wakeups } from "../../ports/Wakeups.ts"
import { authSessionStore, type SessionRow } from "../../store/authSessions.ts"
import { type Membership, type UserRow, userStore } from "../../store/users.ts"
import { fn } from "../../tracing.ts"
import type { Plan, Role } from "../CurrentOrg.ts"
import { ABSOLUTE_DAYS, HOUR_MS, IDLE_MS, LINK_MINUTES, normalEmail, SEEN_EVERY_MS, secret, sha256 } from "./tokens.ts"

/** A live session as a request sees it: the person, their current org and their role there, read now. */
export interface Signed {
  readonly session: SessionRow
  readonly user: UserRow
  readonly org: {
    readonly id: string
    readonly name: string
    readonly timezone: string
    readonly currency: string
    readonly plan: Plan
    readonly allowed_origins: ReadonlyArray<string>
  } | null
  readonly role: Role | null
  /** The member row behind the role (members.user_id): what keys and invites name. */
  readonly memberId: string | null
  readonly memberships: ReadonlyArray<Membership>
}

/** The nonce hash of a ticket: no SHA-256 hex digest is ever equal to it. */
const UNBOUND = "unbound"

export const sessionBody = (s: Signed) => ({
  user: { id: s.user.id, email: s.user.email, name: s.user.name },
  org: s.org && { id: s.org.id, name: s.org.name, timezone: s.org.timezone, currency: s.org.currency },
  role: s.role,
  member_id: s.memberId,
  memberships: s.memberships.map((m) => ({ org_id: m.org_id, org_name: m.org_name, role: m.role })),
  csrf_token: s.session.csrf_token
})

/**
 * People signing in (docs/auth.md): mailed one-time links bound to the browser that asked (its nonce), sessions
 * stored hashed with idle and absolute expiry, the current org and its role read at every request.
 */
export class Auth extends Effect.Service<Auth>()("Auth", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const links = yield* Links
    const wakeups = yield* Wakeups
    const users = userStore(sql)
    const store = authSessionStore(sql)

    /**
     * Mails a sign-in link when the email is on a team, and does nothing visible otherwise. The answer must not tell
     * which: both run the same statement (one round trip, a row written and committed either way: a throw-away link
     * for an unknown email) and the same wake-up of the mail sender after it. The link works only with the nonce the
     * asking browser keeps in its cookie.
     */
    const requestLink = fn("Auth.requestLink")(function* (input: string, nonce: string) {
      const email = normalEmail(input)
      if (email === undefined) return yield* new InvalidEmail({ message: "email: an address like name@example.com" })
      const now = yield* clock.now
      const token = secret("sl_")
      yield* store.requestLink({
        linkId: randomUUID(),
        tokenHash: sha256(token),
        nonceHash: sha256(nonce),
        email,
        at: now,
        expiresAt: new Date(now.getTime() + LINK_MINUTES * 60_000),
        mailId: randomUUID(),
        subject: "Your sign-in link",
        body:
          `Sign in: ${links.publicUrl}/auth/v1/links/${token}\n\n` +
          `The link works once, for ${LINK_MINUTES} minutes, in the browser where you asked for it. ` +
          `If you did not ask, ignore this mail.`
      })
      yield* wakeups.poke
    })

    /** A new session for the person with this email, in their first org; an older session of this browser ends. */
    const start = fn("Auth.start")(function* (
      email: string,
      userAgent: string | undefined,
      previous?: string,
      orgId?: string
    ) {
      const now = yield* clock.now
      const user = yield* users.findOrCreate(email, null, now)
      const memberships = yield* users.memberships(email)
      if (previous !== undefined) {
        const old = yield* store.live(sha256(previous), now, IDLE_MS)
        if (old !== undefined) yield* store.end(old.id, now)
      }
      const token = secret("ss_")
      yield* store.addSession({
        id: randomUUID(),
        user_id: user.id,
        token_hash: sha256(token),
        csrf_token: secret(),
        org_id: memberships.find((m) => m.org_id === orgId)?.org_id ?? memberships[0]?.org_id ?? null,
        user_agent: userAgent?.slice(0, 300) ?? null,
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + ABSOLUTE_DAYS * 24 * HOUR_MS)
      })
      return token
    })

    /** Takes a mailed link (once, while live, from the browser holding its nonce) and starts a session. */
    const redeemLink = fn("Auth.redeemLink")(function* (
      token: string,
      nonce: string | undefined,
      userAgent: string | undefined,
      previous?: string
    ) {
      if (nonce === undefined) return undefined
      const link = yield* store.takeLink(sha256(token), sha256(nonce), yield* clock.now)
      if (link === undefined) return undefined
      return yield* start(link.email, userAgent, previous)
    })

    /**
     * A sign-in ticket for a team member that is not bound to a browser (the welcome mail of a new org's owner, the
     * link `npm start` prints for the demo owner): used once, through a page with a button, within `hours`.
     */
    const ticket = fn("Auth.ticket")(function* (email: string, hours: number) {
      const now = yield* clock.now
      const token = secret("st_")
      yield* store.addLink({
        id: randomUUID(),
        token_hash: sha256(token),
        nonce_hash: UNBOUND,
        email: email.toLowerCase(),
        invite_id: null,
        created_at: now,
        expires_at: new Date(now.getTime() + hours * HOUR_MS)
      })
      return `${links.publicUrl}/auth/v1/links/${token}`
    })
    /** The email of a live ticket (for its page), without using it. */
    const peekTicket = fn("Auth.peekTicket")(function* (token: string) {
      const rows = yield* sql<{ email: string }>`select email from sign_in_links where token_hash = ${sha256(token)}
        and nonce_hash = ${UNBOUND} and used_at is null and expires_at > ${yield* clock.now}`.pipe(Effect.orDie)
      return rows[0]?.email
    })
    const redeemTicket = fn("Auth.redeemTicket")(function* (
      token: string,
      userAgent: string | undefined,
      previous?: string
    ) {
      const link = yield* store.takeLink(sha256(token), UNBOUND, yield* clock.now)
      if (link === undefined) return undefined
      return yield* start(link.email, userAgent, previous)
    })

    /** The session of a cookie with its person, org and role as they are now; undefined when it is not live. */
    const resolve = fn("Auth.resolve")(function* (token: string) {
      const now = yield* clock.now
      const session = yield* store.live(sha256(token), now, IDLE_MS)
      if (session === undefined) return undefined
      if (now.getTime() - session.last_seen_at.getTime() > SEEN_EVERY_MS) yield* store.seen(session.id, now)
      const user = (yield* users.byId(session.user_id))!
      const memberships = yield* users.memberships(user.email)
      const current = memberships.find((m) => m.org_id === session.org_id)
      const org =
        current === undefined
          ? null
          : (yield* sql<NonNullable<Signed["org"]>>`
              select id, name, timezone, currency, plan, allowed_origins from orgs where id = ${current.org_id}`.pipe(
              Effect.orDie
            ))[0]
      return {
        session,
        user,
        org,
        role: current?.role ?? null,
        memberId: current?.member_id ?? null,
        memberships
      } satisfies Signed
    })

    const switchOrg = fn("Auth.switchOrg")(function* (signed: Signed, orgId: string) {
      if (!signed.memberships.some((m) => m.org_id === orgId))
        return yield* new Forbidden({ message: "you are not on this org's team" })
      yield* store.setOrg(signed.session.id, orgId)
    })

    const signOut = fn("Auth.signOut")(function* (signed: Signed) {
      yield* store.end(signed.session.id, yield* clock.now)
    })
    const list = fn("Auth.list")(function* (signed: Signed) {
      const rows = yield* store.ofUser(signed.user.id, yield* clock.now, IDLE_MS)
      return rows.map((r) => ({
        id: r.id,
        created_at: r.created_at.toISOString(),
        last_seen_at: r.last_seen_at.toISOString(),
        user_agent: r.user_agent,
        current: r.id === signed.session.id
      }))
    })
    const signOutOthers = fn("Auth.signOutOthers")(function* (signed: Signed) {
      yield* store.endOthers(signed.user.id, signed.session.id, yield* clock.now)
    })
    const signOutOne = fn("Auth.signOutOne")(function* (signed: Signed, id: string) {
      return yield* store.endOne(signed.user.id, id, yield* clock.now)
    })

    return {
      requestLink,
      start,
      redeemLink,
      ticket,
      peekTicket,
      redeemTicket,
      resolve,
      switchOrg,
      signOut,
      list,
      signOutOthers,
      signOutOne
    } as const
  })
}) {}
