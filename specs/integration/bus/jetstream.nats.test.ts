import { randomBytes, randomInt, randomUUID } from "node:crypto"
import { type JetStreamManager, jetstreamManager } from "@nats-io/jetstream"
import { connect, type NatsConnection, nanos } from "@nats-io/transport-node"
import { Chunk, Effect, Either, Fiber, Ref, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NatsBusLive, type NatsBusOptions } from "../../../adapters/bus/nats.ts"
import { messageIdOf, subjectOf } from "../../../adapters/bus/subjects.ts"
import { type BusEvent, BusUnavailable, DeploymentReused, EventBus } from "../../../engine/ports/Bus.ts"
import { natsReachable, readStream, startPrivateNats, uniqueOrg, natsUrl as url } from "../../support/nats.ts"

// Runs only when NATS_URL is set (see vitest.config.ts). Every test shares the engine's default EVENTS stream (events.>)
// with unique org ids; events of one run of this file are of one deployment, with ids from a random range, so that no
// two tests publish the same (deployment, id). EVENTS is never deleted. An unreachable server fails the suite: the
// first test says so, the others fail on connect.
const reachable = await natsReachable(url)

const privateStreams: Array<string> = []
const firstId = () => randomInt(2 ** 40) * 1000
const DEPLOYMENT = randomUUID()

const makeEvents = (org: string, from: number, count: number, deployment = DEPLOYMENT): Array<BusEvent> =>
  Array.from({ length: count }, (_, i) => ({
    id: from + i,
    deployment,
    org_id: org,
    type: ["booking.held", "booking.confirmed", "offering.updated"][i % 3],
    created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    data: { n: i, name: "Zoë" }
  }))

const withBus = <A, E>(f: (bus: EventBus["Type"]) => Effect.Effect<A, E>, options: NatsBusOptions = {}, server = url) =>
  Effect.runPromise(Effect.flatMap(EventBus, f).pipe(Effect.provide(NatsBusLive(server, options))))

const increasing = (xs: Array<number>) => xs.every((x, i) => i === 0 || x > xs[i - 1])

describe("NatsBusLive against a real JetStream", () => {
  let nc: NatsConnection
  let jsm: JetStreamManager

  beforeAll(async () => {
    if (!reachable) return // the reachability test fails, the others on nc
    nc = await connect({ servers: url, timeout: 5_000 })
    jsm = await jetstreamManager(nc)
  })

  afterAll(async () => {
    if (!nc) return
    for (const s of privateStreams) await jsm.streams.delete(s).catch(() => false)
    await nc.close()
  })

  it(`reaches NATS at ${url}`, () => {
    expect(reachable, `NATS at ${url} is unreachable (NATS_URL is set, so it must answer)`).toBe(true)
  })

  it("publishes to events.<org>.<type> on EVENTS with Nats-Msg-Id <deployment>:<event id>, in order", async () => {
    const org = uniqueOrg()
    const events = makeEvents(org, firstId(), 7)
    await withBus((bus) => bus.publish(events))
    const stored = await readStream(url, `events.${org}.>`)
    expect(stored.map((m) => m.subject)).toEqual(events.map((e) => subjectOf(e)))
    expect(stored.map((m) => m.subject)).toEqual(events.map((e) => `events.${org}.${e.type}`))
    expect(stored.map((m) => m.msgId)).toEqual(events.map((e) => `${DEPLOYMENT}:${e.id}`))
    expect(stored.map((m) => m.event)).toEqual(
      events.map(({ id, deployment, org_id, type, created_at, data }) => ({
        id,
        deployment,
        org_id,
        type,
        created_at,
        data
      }))
    )
    expect(increasing(stored.map((m) => m.seq))).toBe(true)
    const info = await jsm.streams.info("EVENTS")
    expect(info.config.subjects).toEqual(["events.>"])
    expect(info.config.storage).toBe("file")
  })

  it("dedupes a re-publish of the same ids, also from a second connection", async () => {
    const org = uniqueOrg()
    const base = firstId()
    const events = makeEvents(org, base, 10)
    await withBus((bus) => Effect.zipRight(bus.publish(events), bus.publish(events.slice(3, 8))))
    expect(await readStream(url, `events.${org}.>`)).toHaveLength(10)
    await withBus((bus) => bus.publish([...events, ...makeEvents(org, base + 10, 2)]))
    const stored = await readStream(url, `events.${org}.>`)
    expect(stored.map((m) => m.event.id)).toEqual([...events.map((e) => e.id), base + 10, base + 11])
  })

  it("creates a stream once and updates it on a later build (idempotent)", async () => {
    const stream = `BUS_TEST_${randomBytes(6).toString("hex")}`
    privateStreams.push(stream)
    const options: NatsBusOptions = { stream, subjectPrefix: `bustest_${stream.toLowerCase()}` }
    await withBus(() => Effect.void, options)
    const first = await jsm.streams.info(stream)
    expect(first.config.subjects).toEqual([`${options.subjectPrefix}.>`])
    expect(first.config.storage).toBe("file")
    expect(first.config.duplicate_window).toBe(nanos(120_000))

    await withBus(() => Effect.void, options)
    const second = await jsm.streams.info(stream)
    expect(second.created).toBe(first.created)
    expect(second.config).toEqual(first.config)

    await withBus(() => Effect.void, { ...options, duplicateWindowMs: 300_000 })
    const third = await jsm.streams.info(stream)
    expect(third.created).toBe(first.created)
    expect(third.config.duplicate_window).toBe(nanos(300_000))
  })

  it("keeps the same event ids of two deployments apart, and dedupes each one's re-publish", async () => {
    const org = uniqueOrg()
    const base = firstId()
    const [a, b] = [randomUUID(), randomUUID()]
    const ofA = makeEvents(org, base, 4, a)
    const ofB = makeEvents(org, base, 4, b).map((e) => ({ ...e, data: { of: "b" } }))
    await withBus((bus) => Effect.zipRight(bus.publish(ofA), bus.publish(ofB)))
    await withBus((bus) => Effect.zipRight(bus.publish(ofB), bus.publish(ofA.slice(1, 3))))
    const stored = await readStream(url, `events.${org}.>`)
    expect(stored.map((m) => m.msgId)).toEqual([...ofA, ...ofB].map(messageIdOf))
    const keys = [...ofA, ...ofB].map((e) => [e.deployment, e.id])
    expect(stored.map((m) => [m.event.deployment, m.event.id])).toEqual(keys)
  })

  it("fails with DeploymentReused when the stream holds other events under a batch's (deployment, id)s", async () => {
    const base = firstId()
    const deployment = randomUUID()
    const original = makeEvents(uniqueOrg(), base, 3, deployment)
    const copy = makeEvents(uniqueOrg(), base + 1, 3, deployment) // ids base + 1, base + 2 clash; base + 3 is new
    const result = await withBus((bus) => Effect.zipRight(bus.publish(original), Effect.either(bus.publish(copy))))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left).toBeInstanceOf(DeploymentReused)
      expect(result.left).toMatchObject({ deployment, ids: [base + 1, base + 2] })
    }
  })

  it("adds its subject prefix to a stream shared with another, and publishes and subscribes on its own", async () => {
    const stream = `BUS_TEST_${randomBytes(6).toString("hex")}`
    privateStreams.push(stream)
    const [one, two] = [`one_${stream.toLowerCase()}`, `two.${stream.toLowerCase()}`]
    const [orgOne, orgTwo] = [uniqueOrg(), uniqueOrg()]
    const base = firstId()
    const publishOnTwo = (events: ReadonlyArray<BusEvent>) =>
      Effect.flatMap(EventBus, (bus) => bus.publish(events)).pipe(
        Effect.provide(NatsBusLive(url, { stream, subjectPrefix: two }))
      )
    const received = await withBus(
      (bus) =>
        Effect.gen(function* () {
          const seen = yield* Ref.make(0)
          const fiber = yield* bus.subscribe.pipe(
            Stream.tap(() => Ref.update(seen, (n) => n + 1)),
            Stream.takeUntil((e) => e.id === base + 999),
            Stream.runCollect,
            Effect.fork
          )
          // Probe until the subscription is live, then publish on the other prefix, then one last event on ours.
          for (let probe = base; (yield* Ref.get(seen)) === 0; probe++) {
            yield* bus.publish(makeEvents(orgOne, probe, 1))
            yield* Effect.sleep("100 millis")
          }
          yield* publishOnTwo(makeEvents(orgTwo, base + 500, 3))
          yield* bus.publish(makeEvents(orgOne, base + 999, 1))
          return yield* Fiber.join(fiber).pipe(Effect.timeout("60 seconds"))
        }),
      { stream, subjectPrefix: one }
    )
    expect(Chunk.toReadonlyArray(received).every((e) => e.org_id === orgOne)).toBe(true)
    expect((await jsm.streams.info(stream)).config.subjects).toEqual([`${one}.>`, `${two}.>`])
    const stored = await readStream(url, `${two}.>`, 1_000, stream)
    expect(stored.map((m) => m.subject)).toEqual(makeEvents(orgTwo, 0, 3).map((e) => `${two}.${orgTwo}.${e.type}`))
  })

  it("subscribe streams only events published after it starts, decoded", async () => {
    const org = uniqueOrg()
    const base = firstId()
    const old = makeEvents(org, base, 2)
    const fresh = makeEvents(org, base + 1_000, 3)
    const received = await withBus((bus) =>
      Effect.gen(function* () {
        yield* bus.publish(old)
        const seen = yield* Ref.make<Array<BusEvent>>([])
        const fiber = yield* bus.subscribe.pipe(
          Stream.filter((e) => e.org_id === org),
          Stream.tap((e) => Ref.update(seen, (xs) => [...xs, e])),
          Stream.takeUntil((e) => e.id === fresh[fresh.length - 1].id),
          Stream.runCollect,
          Effect.fork
        )
        // Probe until the subscription is live on the server, then publish the fresh events.
        for (let probe = base + 100; (yield* Ref.get(seen)).length === 0; probe++) {
          yield* bus.publish(makeEvents(org, probe, 1))
          yield* Effect.sleep("100 millis")
        }
        yield* bus.publish(fresh)
        return yield* Fiber.join(fiber).pipe(Effect.timeout("60 seconds"))
      })
    )
    const all = Chunk.toReadonlyArray(received)
    expect(all.some((e) => e.id < base + 100)).toBe(false) // nothing from before the subscription
    expect(all.filter((e) => e.id >= base + 1_000)).toEqual(fresh)
  })

  it("publishes a batch of 5,000 concurrently, stored in id order", async () => {
    const org = uniqueOrg()
    const events = makeEvents(org, firstId(), 5_000)
    const seconds = await withBus(
      (bus) =>
        Effect.gen(function* () {
          yield* bus.publish(makeEvents(uniqueOrg(), firstId(), 1)) // warm-up, another org
          const started = performance.now()
          yield* bus.publish(events)
          return (performance.now() - started) / 1000
        }),
      { publishTimeoutMs: 30_000 }
    ) // 5,000 acks in flight: the 2 s default timed out on a loaded machine
    const stored = await readStream(url, `events.${org}.>`)
    expect(stored.map((m) => m.event.id)).toEqual(events.map((e) => e.id))
    expect(increasing(stored.map((m) => m.seq))).toBe(true)
    console.log(
      `NATS publish: ${events.length} events in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(events.length / seconds)} events/s`
    )
  })

  it("fails with BusUnavailable, without hanging, while the server is down", async () => {
    const nats = await startPrivateNats()
    try {
      const result = await withBus(
        (bus) =>
          Effect.gen(function* () {
            yield* bus.publish(makeEvents(uniqueOrg(), firstId(), 1))
            yield* Effect.promise(() => nats.stop())
            const started = performance.now()
            const outcome = yield* Effect.either(bus.publish(makeEvents(uniqueOrg(), firstId(), 2)))
            return { outcome, ms: performance.now() - started }
          }),
        { publishTimeoutMs: 500 },
        nats.url
      )
      expect(Either.isLeft(result.outcome)).toBe(true)
      if (Either.isLeft(result.outcome)) expect(result.outcome.left).toBeInstanceOf(BusUnavailable)
      expect(result.ms).toBeLessThan(15_000) // a 500 ms publish timeout, not a hang; generous for a loaded machine
    } finally {
      await nats.dispose()
    }
  })

  it("fails to build with BusUnavailable when the server cannot be reached", async () => {
    const layerResult = await Effect.runPromise(
      Effect.either(
        Effect.provide(
          EventBus,
          NatsBusLive("nats://127.0.0.1:1", { stream: `BUS_TEST_${randomBytes(6).toString("hex")}` })
        )
      )
    )
    expect(Either.isLeft(layerResult)).toBe(true)
    if (Either.isLeft(layerResult)) expect(layerResult.left).toBeInstanceOf(BusUnavailable)
  })
})
