import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { bookingsOrg, clockNow, expectError, hoursAhead, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

/** The invite token from the mail sent to an address (the API never shows it). */
const tokenFor = async (email: string) => {
  const rows = await sql(
    app,
    (s) =>
      s<{
        body: string
      }>`select body from mail_outbox where to_address = ${email} and kind = 'member.invited' order by created_at desc, id`
  )
  return /\/invites\/(inv_[A-Za-z0-9_-]+)\/accept/.exec(rows[0].body)![1]
}

/** An org with an owner member and that owner's own key. */
const teamOrg = async () => {
  const org = await bookingsOrg(app)
  const owner = ok(
    await app.admin("POST", `/orgs/${org.id}/members`, { email: "olga@example.com", name: "Olga", role: "owner" }),
    201
  )
  const key = ok(await org.call("POST", "/api_keys", { user_id: owner.user_id }), 201).key as string
  const as = (k: string) => (method: string, path: string, body?: unknown) =>
    app.call(k, method, `/api/v1${path}`, body)
  return { org, owner, ownerCall: as(key), as }
}

describe("team invites", () => {
  it("an owner invites by email; the invitee accepts with the mailed token and joins; invited, joined and list agree", async () => {
    const { org, owner, ownerCall } = await teamOrg()
    const invite = ok(await ownerCall("POST", "/team/invites", { email: "Sam@Example.com", role: "staff" }), 201)
    expect(invite).toMatchObject({ email: "sam@example.com", role: "staff", invited_by: owner.user_id })
    expect(Date.parse(invite.expires_at) - Date.parse(invite.created_at)).toBe(7 * 86_400_000)
    expect(ok(await ownerCall("GET", "/team")).invites).toEqual([invite])
    expectError(
      await ownerCall("POST", "/team/invites", { email: "sam@example.com", role: "owner" }),
      409,
      "invite_exists"
    )
    expectError(
      await ownerCall("POST", "/team/invites", { email: "olga@example.com", role: "staff" }),
      409,
      "member_exists"
    )

    const token = await tokenFor("sam@example.com")
    const joined = ok(await app.call(null, "POST", `/api/v1/invites/${token}/accept`, { name: "Sam" }), 201)
    expect(joined).toMatchObject({ email: "sam@example.com", name: "Sam", role: "staff" })
    const team = ok(await ownerCall("GET", "/team"))
    expect(team.data.map((m: { email: string }) => m.email)).toEqual(["olga@example.com", "sam@example.com"])
    expect(team.invites).toEqual([])
    expectError(await app.call(null, "POST", `/api/v1/invites/${token}/accept`, {}), 404, "not_found")

    const events = (await org.events()).filter((e) => e.type.startsWith("member."))
    expect(events.map((e) => e.type)).toEqual(["member.joined", "member.invited", "member.joined"])
    expect(events[1].data).toEqual({
      id: invite.id,
      email: "sam@example.com",
      role: "staff",
      invited_by: owner.user_id
    })
    expect(events[2].data).toEqual({
      user_id: joined.user_id,
      email: "sam@example.com",
      role: "staff",
      invite_id: invite.id
    })
  })

  it("ten invites for one email at once: exactly one 201, the rest 409 invite_exists, one invite, one mail, one event", async () => {
    const { org, ownerCall } = await teamOrg()
    const email = "race@example.com"
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ownerCall("POST", "/team/invites", { email: i % 2 === 0 ? email : "Race@Example.com", role: "staff" })
      )
    )
    const tally: Record<number, number> = {}
    for (const r of replies) tally[r.status] = (tally[r.status] ?? 0) + 1
    expect(tally).toEqual({ 201: 1, 409: 9 })
    for (const r of replies.filter((x) => x.status === 409)) expectError(r, 409, "invite_exists")
    const invites = await sql(
      app,
      (s) => s<{ id: string }>`select id from invites where org_id = ${org.id} and lower(email) = ${email}`
    )
    expect(invites).toEqual([{ id: replies.find((r) => r.status === 201)!.body.id }])
    const mails = await sql(
      app,
      (s) =>
        s<{
          n: number
        }>`select count(*)::int as n from mail_outbox where to_address = ${email} and kind = 'member.invited'`
    )
    expect(mails).toEqual([{ n: 1 }])
    expect((await org.events("member.invited")).map((e) => e.data.email)).toEqual([email])
  })

  it("an invitee accepting while the admin API adds the same email: one member, the other 409 member_exists", async () => {
    const { org, ownerCall } = await teamOrg()
    for (let round = 0; round < 5; round++) {
      const email = `both${round}@example.com`
      ok(await ownerCall("POST", "/team/invites", { email, role: "staff" }), 201)
      const token = await tokenFor(email)
      const [accepted, added] = await Promise.all([
        app.call(null, "POST", `/api/v1/invites/${token}/accept`, {}),
        app.admin("POST", `/orgs/${org.id}/members`, { email, role: "staff" })
      ])
      expect([accepted.status, added.status].sort()).toEqual([201, 409])
      for (const r of [accepted, added].filter((x) => x.status === 409)) expectError(r, 409, "member_exists")
      const members = await sql(
        app,
        (s) =>
          s<{ n: number }>`select count(*)::int as n from members where org_id = ${org.id} and lower(email) = ${email}`
      )
      expect(members).toEqual([{ n: 1 }])
    }
  })

  it("an invite can be revoked or declined (member.invite_revoked) and expires after 7 days", async () => {
    const { org, ownerCall } = await teamOrg()
    const revoked = ok(await ownerCall("POST", "/team/invites", { email: "rev@example.com", role: "staff" }), 201)
    const revokedToken = await tokenFor("rev@example.com")
    ok(await ownerCall("DELETE", `/team/invites/${revoked.id}`))
    expectError(await app.call(null, "POST", `/api/v1/invites/${revokedToken}/accept`, {}), 404, "not_found")
    expectError(await ownerCall("DELETE", `/team/invites/${revoked.id}`), 404, "not_found")

    ok(await ownerCall("POST", "/team/invites", { email: "no@example.com", role: "staff" }), 201)
    ok(await app.call(null, "POST", `/api/v1/invites/${await tokenFor("no@example.com")}/decline`))

    ok(await ownerCall("POST", "/team/invites", { email: "late@example.com", role: "owner" }), 201)
    const late = await tokenFor("late@example.com")
    await app.advance(7 * 86_400 + 1)
    expectError(await app.call(null, "POST", `/api/v1/invites/${late}/accept`, {}), 409, "invite_expired")
    // An expired invite makes way for a new one.
    ok(await ownerCall("POST", "/team/invites", { email: "late@example.com", role: "owner" }), 201)

    const revokedEvents = (await org.events("member.invite_revoked")).map((e) => e.data.email)
    expect(revokedEvents).toEqual(["rev@example.com", "no@example.com"])
    expect((await app.call(null, "POST", "/api/v1/invites/not-a-token/accept", {})).status).toBe(400)
  })

  it("only an owner's key changes the team: staff keys get 403 forbidden", async () => {
    const { org, ownerCall, as } = await teamOrg()
    ok(await ownerCall("POST", "/team/invites", { email: "staff@example.com", role: "staff" }), 201)
    const staff = ok(
      await app.call(null, "POST", `/api/v1/invites/${await tokenFor("staff@example.com")}/accept`, {}),
      201
    )
    const staffKey = ok(await ownerCall("POST", "/api_keys", { user_id: staff.user_id }), 201).key
    const staffCall = as(staffKey)
    expect((await staffCall("GET", "/team")).status).toBe(200)
    expectError(await staffCall("POST", "/team/invites", { email: "x@example.com", role: "owner" }), 403, "forbidden")
    expectError(await staffCall("PATCH", `/team/${staff.user_id}`, { role: "owner" }), 403, "forbidden")
    expectError(await staffCall("DELETE", `/team/${staff.user_id}`), 403, "forbidden")
    // Made an owner, the same key may: the role is read when the key is used.
    ok(await ownerCall("PATCH", `/team/${staff.user_id}`, { role: "owner" }))
    expect((await staffCall("POST", "/team/invites", { email: "x@example.com", role: "staff" })).status).toBe(201)
    expect((await org.events("member.updated")).map((e) => e.data)).toEqual([
      { user_id: staff.user_id, email: "staff@example.com", role: "owner" }
    ])
  })

  it("the last owner can be neither made staff nor removed; a removed member's keys stop and their times keep no teacher", async () => {
    const { org, owner, ownerCall } = await teamOrg()
    expectError(await ownerCall("PATCH", `/team/${owner.user_id}`, { role: "staff" }), 409, "last_owner")
    expectError(await ownerCall("DELETE", `/team/${owner.user_id}`), 409, "last_owner")
    const renamed = ok(await ownerCall("PATCH", `/team/${owner.user_id}`, { name: "Olga B." }))
    expect(renamed.name).toBe("Olga B.")

    ok(await ownerCall("POST", "/team/invites", { email: "teach@example.com", role: "staff" }), 201)
    const teacher = ok(
      await app.call(null, "POST", `/api/v1/invites/${await tokenFor("teach@example.com")}/accept`, { name: "Tess" }),
      201
    )
    const teacherKey = ok(await ownerCall("POST", "/api_keys", { user_id: teacher.user_id }), 201).key
    const o = await org.offering({ kind: "class", capacity: 5 })
    const session = ok(
      await org.call("POST", "/sessions", {
        offering_id: o.id,
        starts_at: hoursAhead(await clockNow(app), 48).toISOString(),
        teacher: teacher.user_id
      }),
      201
    ).data[0]
    expect(session.teacher).toEqual({ user_id: teacher.user_id, name: "Tess" })

    const removed = ok(await ownerCall("DELETE", `/team/${teacher.user_id}`))
    expect(removed).toMatchObject({ user_id: teacher.user_id, role: "staff" })
    expect((await app.call(teacherKey, "GET", "/api/v1/org")).status).toBe(401)
    const after = (await org.sessions(o.id)).find((s) => s.id === session.id)
    expect(after?.teacher).toBeNull()
    expectError(await ownerCall("DELETE", `/team/${teacher.user_id}`), 404, "not_found")
    expectError(await org.call("PATCH", `/sessions/${session.id}`, { teacher: teacher.user_id }), 400, "not_a_member")
    expect((await org.events("member.removed")).map((e) => e.data)).toEqual([
      { user_id: teacher.user_id, email: "teach@example.com", role: "staff" }
    ])
    // They may be invited again.
    expect((await ownerCall("POST", "/team/invites", { email: "teach@example.com", role: "staff" })).status).toBe(201)

    // Another org's member is not found.
    const other = await teamOrg()
    expectError(await other.ownerCall("DELETE", `/team/${owner.user_id}`), 404, "not_found")
  })
})

describe("org settings", () => {
  it("the currency may change until money has moved, then 409 currency_locked", async () => {
    const org = await bookingsOrg(app)
    const changed = ok(await org.call("PATCH", "/org", { currency: "USD" }))
    expect(changed.currency).toBe("USD")
    // A free booking moves no money.
    const { offering, session } = await org.classWithSession({ price_cents: 0 })
    ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
    expect(ok(await org.call("PATCH", "/org", { currency: "GBP" })).currency_minor_units).toBe(100)
    const priced = await org.classWithSession({ price_cents: 1500 })
    ok(await org.book({ offering_id: priced.offering.id, session_id: priced.session.id }), 201)
    expectError(await org.call("PATCH", "/org", { currency: "JPY" }), 409, "currency_locked")
    expect(ok(await org.call("PATCH", "/org", { currency: "GBP", name: "Same currency" })).name).toBe("Same currency")
    expect(ok(await org.call("GET", "/org")).currency).toBe("GBP")
  })
})
