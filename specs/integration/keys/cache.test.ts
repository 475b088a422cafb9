import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { EngineClock } from "../../../engine/ports/Clock.ts"
import { type SignalHandlers, Signals, type SignalsShape } from "../../../engine/ports/Signals.ts"
import { OfferingReads } from "../../../engine/services/offerings/reads.ts"
import { orgKeyCache } from "../../../engine/services/orgKeyCache.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { tinyJpeg } from "../../support/jpeg.ts"

// What an instance keeps in memory (API keys, GET /offerings/{id}) is forgotten when a commit changes it, whoever
// commits it: another instance, or someone with SQL (here: statements on the app's database that the engine does not
// make, so only the database's notice can tell it). `Signals.sync` answers once every notice committed before it has
// been heard, so "the next request" is asked after that, without waiting on a clock.
let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app?.close())

/** Runs in the app's context (every service of the app is there; the runtime's type names only two). */
const inApp = <A>(effect: Effect.Effect<A, never, SqlClient.SqlClient | EngineClock>) =>
  app.runtime.runPromise(effect as Effect.Effect<A, never, SqlClient.SqlClient>)
const heard = () => app.runtime.runPromise(Effect.flatMap(Signals, (s) => s.sync))
const exec = (text: string, ...values: Array<string>) => sql(app, (s) => s.unsafe(text, values))
const status = async (key: string, method: string, path: string, body?: unknown) => {
  const r = await app.call(key, method, `/api/v1${path}`, body)
  return r.status === 200 || r.status === 201 ? r.status : `${r.status} ${r.body?.error?.code}`
}

/** Signals under the test's hand: whether it listens, and a reset as a reconnect makes. No message ever arrives. */
const handSignals = () => {
  const handlers = new Set<SignalHandlers>()
  const state = { listening: true }
  const shape: SignalsShape = {
    notify: () => Effect.void,
    listen: (_channel, h) =>
      Effect.acquireRelease(
        Effect.sync(() => handlers.add(h)),
        () => Effect.sync(() => handlers.delete(h))
      ).pipe(Effect.asVoid),
    sync: Effect.sync(() => state.listening),
    synced: () => Promise.resolve(state.listening),
    listening: () => state.listening
  }
  return { shape, state, reset: () => handlers.forEach((h) => h.onReset()) }
}

describe("API keys kept in memory", () => {
  it("a key revoked by another writer is refused on the next request once its commit's notice is heard", async () => {
    const org = await app.newOrg()
    for (let i = 0; i < 2; i++) expect(await status(org.key, "GET", "/offerings")).toBe(200)
    await exec("update api_keys set revoked_at = now() where id = $1", org.keyId)
    expect(await heard()).toBe(true)
    expect(await status(org.key, "GET", "/offerings")).toBe("401 unauthorized")
  })

  it("a member's key follows the member: made staff elsewhere it may no longer manage keys, removed it reaches nothing", async () => {
    const org = await app.newOrg()
    const member = await app.admin("POST", `/orgs/${org.id}/members`, { email: "olga@example.com", role: "owner" })
    const key = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: member.body.user_id })).body.key
    expect(await status(key, "GET", "/api_keys")).toBe(200)
    await exec("update members set role = 'staff' where user_id = $1", member.body.user_id)
    expect(await heard()).toBe(true)
    expect(await status(key, "GET", "/api_keys")).toBe("403 forbidden")
    expect(await status(key, "GET", "/offerings")).toBe(200)
    await exec("update members set removed_at = now() where user_id = $1", member.body.user_id)
    expect(await heard()).toBe(true)
    expect(await status(key, "GET", "/offerings")).toBe("401 unauthorized")
    expect(await status(org.key, "GET", "/offerings")).toBe(200)
  })

  it("the instance that revokes refuses at once, with no notice heard yet; a member removed through the API too", async () => {
    const org = await app.newOrg()
    const member = await app.admin("POST", `/orgs/${org.id}/members`, { email: "sam@example.com", role: "staff" })
    const key = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: member.body.user_id })).body.key
    expect(await status(key, "GET", "/offerings")).toBe(200)
    expect(await status(org.key, "DELETE", `/team/${member.body.user_id}`)).toBe(200)
    expect(await status(key, "GET", "/offerings")).toBe("401 unauthorized")
  })

  it("while not listening nothing is remembered, and a reset (a reconnect) forgets what was", async () => {
    const org = await app.newOrg()
    const hand = handSignals()
    const lookups = await inApp(
      Effect.gen(function* () {
        const cache = yield* orgKeyCache
        const resolves = () => Effect.map(cache.authenticate(org.key), (o) => o._tag === "Some")
        const revoke = (at: string | null) =>
          Effect.promise(() =>
            at === null
              ? exec("update api_keys set revoked_at = null where id = $1", org.keyId)
              : exec("update api_keys set revoked_at = now() where id = $1", org.keyId)
          )
        const out: Array<boolean> = []
        out.push(yield* resolves())
        // This cache hears nothing: only a reset can make it forget.
        yield* revoke("now")
        out.push(yield* resolves())
        yield* Effect.sync(hand.reset)
        out.push(yield* resolves())
        yield* revoke(null)
        hand.state.listening = false
        out.push(yield* resolves())
        yield* revoke("now")
        out.push(yield* resolves())
        return out
      }).pipe(Effect.provideService(Signals, hand.shape), Effect.scoped)
    )
    // remembered (stale after a revoke it did not hear), forgotten on reset; not remembered while deaf.
    expect(lookups).toEqual([true, true, false, true, false])
  })
})

describe("GET /offerings/{id} kept in memory", () => {
  const offering = async (key: string) =>
    (await app.call(key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class", capacity: 10 })).body as {
      id: string
    }
  const get = (key: string, id: string) => app.call(key, "GET", `/api/v1/offerings/${id}`)

  it("a change by another writer is what the next read shows once its notice is heard: renamed, paused, deleted", async () => {
    const org = await app.newOrg()
    const { id } = await offering(org.key)
    expect((await get(org.key, id)).body.name).toBe("Yoga")
    await exec("update offerings set name = 'Pilates' where id = $1", id)
    expect(await heard()).toBe(true)
    expect((await get(org.key, id)).body.name).toBe("Pilates")
    await exec("update offerings set state = 'paused' where id = $1", id)
    expect(await heard()).toBe(true)
    expect((await get(org.key, id)).body.active).toBe(false)
    await exec("update offerings set state = 'removed', deleted_at = now() where id = $1", id)
    expect(await heard()).toBe(true)
    expect((await get(org.key, id)).status).toBe(404)
  })

  it("this instance's own changes show on the very next read: updated, paused, hours, photo, deleted", async () => {
    const org = await app.newOrg()
    const { id } = await offering(org.key)
    const rental = (
      await app.call(org.key, "POST", "/api/v1/offerings", { name: "Kayak", kind: "rental", duration_minutes: 60 })
    ).body.id
    expect((await get(org.key, id)).body.capacity).toBe(10)
    expect(await status(org.key, "PATCH", `/offerings/${id}`, { capacity: 12 })).toBe(200)
    expect((await get(org.key, id)).body.capacity).toBe(12)
    expect(await status(org.key, "PATCH", `/offerings/${id}`, { active: false })).toBe(200)
    expect((await get(org.key, id)).body.active).toBe(false)
    const before = (await get(org.key, rental)).body.updated_at
    const hours = [{ weekday: 1, start_time: "10:00", end_time: "12:00" }]
    expect(await status(org.key, "PUT", `/offerings/${rental}/hours`, { hours })).toBe(200)
    expect((await get(org.key, rental)).body.updated_at).not.toBe(before)
    expect((await get(org.key, id)).body.photo_url).toBeNull()
    const photo = await fetch(`${app.url}/api/v1/offerings/${id}/photo`, {
      method: "PUT",
      headers: { authorization: `Bearer ${org.key}`, "content-type": "image/jpeg" },
      body: tinyJpeg(40, 30) as BodyInit
    })
    expect(photo.status).toBe(200)
    expect((await get(org.key, id)).body.photo_url).toBe((await photo.json()).photo_url)
    expect(await status(org.key, "DELETE", `/offerings/${id}/photo`)).toBe(200)
    expect((await get(org.key, id)).body.photo_url).toBeNull()
    expect(await status(org.key, "DELETE", `/offerings/${id}`)).toBe(200)
    expect((await get(org.key, id)).status).toBe(404)
  })

  it("another org's offering is a 404 whether or not this instance remembers it, and an id in capitals is the same", async () => {
    const [mine, theirs] = [await app.newOrg(), await app.newOrg()]
    const { id } = await offering(mine.key)
    expect((await get(mine.key, id)).status).toBe(200)
    const other = await get(theirs.key, id)
    expect({ status: other.status, code: other.body.error?.code }).toEqual({ status: 404, code: "not_found" })
    expect((await get(mine.key, id.toUpperCase())).body.id).toBe(id)
    await exec("update offerings set name = 'Barre' where id = $1", id)
    expect(await heard()).toBe(true)
    expect((await get(mine.key, id.toUpperCase())).body.name).toBe("Barre")
  })

  it("while not listening nothing is remembered, and a reset (a reconnect) forgets what was", async () => {
    const org = await app.newOrg()
    const { id } = await offering(org.key)
    const hand = handSignals()
    const names = await app.runtime.runPromise(
      Effect.gen(function* () {
        const reads = yield* OfferingReads
        const name = () => Effect.map(reads.get(org.id, id), (o) => (o._tag === "Some" ? o.value.name : null))
        const rename = (to: string) =>
          Effect.promise(() => exec("update offerings set name = $2 where id = $1", id, to))
        const out: Array<string | null> = []
        out.push(yield* name())
        yield* rename("One")
        out.push(yield* name())
        yield* Effect.sync(hand.reset)
        out.push(yield* name())
        hand.state.listening = false
        yield* Effect.sync(hand.reset)
        out.push(yield* name())
        yield* rename("Two")
        out.push(yield* name())
        return out
      }).pipe(Effect.provide(OfferingReads.Default), Effect.provideService(Signals, hand.shape))
    )
    expect(names).toEqual(["Yoga", "Yoga", "One", "One", "Two"])
  })
})
