import { DeliverPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream"
import { connect, type NatsConnection } from "@nats-io/transport-node"
import { Cause, Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NatsBusLive } from "../../../adapters/bus/nats.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { readStream, startPrivateNats } from "../../support/nats.ts"
import { type NatsCluster, startNatsCluster } from "../../support/natsCluster.ts"
import { until } from "../../support/ports.ts"
import { allRelayed, ids, orgEvents } from "../events/helpers.ts"

// A three-node JetStream cluster of our own (nats-server processes on loopback), the stream with three replicas: the
// stream's leader killed with -9 under steady bookings, then started again.
let cluster: NatsCluster
let app: TestApp | undefined
let watcher: NatsConnection | undefined

beforeAll(async () => {
  cluster = await startNatsCluster(3)
})
afterAll(async () => {
  await watcher?.close().catch(() => {})
  await app?.close()
  await cluster?.dispose()
})

const streamInfo = async (nc: NatsConnection) => (await jetstreamManager(nc)).streams.info("EVENTS")

describe("a three-node NATS cluster, NATS_STREAM_REPLICAS=3", () => {
  it("keeps booking, publishes each event once and resumes within 1 s of the new leader when the stream's leader dies; the node catches up", async () => {
    // The stream exists with one replica (an engine started without NATS_STREAM_REPLICAS): the app moves it to three.
    await Effect.runPromise(Effect.scoped(Layer.build(NatsBusLive(cluster.url, { replicas: 1 }))))
    watcher = await connect({ servers: cluster.url.split(","), maxReconnectAttempts: -1 })
    expect((await streamInfo(watcher)).config.num_replicas).toBe(1)
    app = await startApp({ natsUrl: Option.some(cluster.url), natsStreamReplicas: 3 })
    expect((await streamInfo(watcher)).config.num_replicas).toBe(3)
    await until(async () => (await streamInfo(watcher!)).cluster?.replicas?.length === 2, 10_000, "three copies")

    const org = await app.newOrg({ plan: "scale" })
    const offering = (
      await app.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class", capacity: 5000 })
    ).body
    const startsAt = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13)}:00:00.000Z`
    const session = (
      await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: offering.id, starts_at: startsAt })
    ).body.data[0]

    // A consumer reading the stream from its start, noting each of the org's events and when the stream stored it.
    const arrivals: Array<{ id: number; at: number }> = []
    // It pulls in batches and, when a pull fails (its consumer lived on the killed node), goes on from the last message.
    let reading = true
    const reader = (async () => {
      let last = 0
      while (reading) {
        try {
          const consumer = await jetstream(watcher!).consumers.get("EVENTS", {
            filter_subjects: `events.${org.id}.>`,
            ...(last === 0
              ? { deliver_policy: DeliverPolicy.All }
              : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: last + 1 })
          })
          while (reading) {
            // A pull from a consumer whose node died may never end: given up after 3 s, and made again.
            const batch = (async () => {
              for await (const m of await consumer.fetch({ max_messages: 500, expires: 1_000 })) {
                arrivals.push({ id: m.json<{ id: number }>().id, at: m.time.getTime() })
                last = m.seq
              }
            })()
            let late: ReturnType<typeof setTimeout> | undefined
            await Promise.race([
              batch,
              new Promise((_, no) => (late = setTimeout(() => no(new Error("stalled")), 3_000)))
            ])
            clearTimeout(late)
          }
        } catch {
          await new Promise((r) => setTimeout(r, 200))
        }
      }
    })()

    // Steady bookings: four callers, each pausing 20 ms between bookings; the leader dies at 3 s.
    const statuses: Array<number> = []
    let stop = false
    let n = 0
    const worker = async () => {
      while (!stop) {
        const i = n++
        const res = await app!.call(org.key, "POST", "/api/v1/bookings", {
          offering_id: offering.id,
          session_id: session.id,
          customer: { email: `g${i}@example.com`, name: `Guest ${i}` }
        })
        statuses.push(res.status)
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    const workers = Array.from({ length: 4 }, worker)
    await new Promise((r) => setTimeout(r, 3_000))
    const leaderName = (await streamInfo(watcher)).cluster?.leader
    const leader = cluster.nodes.find((node) => node.name === leaderName)!
    expect(leader).toBeDefined()
    const killedAt = Date.now()
    await leader.kill()
    // NATS's own part of the pause: a follower campaigns after 4 to 9 s without the leader's heartbeat (nats-server's
    // raft election timeout, a constant in 2.9 and 2.10). The new leader's own log says when it took over.
    await until(() => cluster.leaderElected("EVENTS", killedAt) !== undefined, 20_000, "a new stream leader", 100)
    const electedAt = cluster.leaderElected("EVENTS", killedAt)!
    await new Promise((r) => setTimeout(r, 4_000))
    stop = true
    await Promise.all(workers)

    expect(statuses.length).toBeGreaterThan(20)
    expect(statuses.filter((s) => s !== 201)).toEqual([])

    // Every event of the org reaches the stream exactly once, in order, and the consumer saw each of them.
    await until(allRelayed(app, org.id), 30_000, "every event relayed")
    const expected = ids(await orgEvents(app, org.id))
    const survivor = cluster.nodes.find((node) => node.running())!
    // Read back through a consumer of its own, made once the cluster answers (it may be electing its meta leader too).
    let stored: Awaited<ReturnType<typeof readStream>> = []
    await until(
      async () => {
        // A read stops after a second with nothing new, which a consumer moving to a new leader can take: read again
        // until the stream has given at least every event (one given twice still fails below).
        stored = await readStream(survivor.url, `events.${org.id}.>`)
        return stored.length >= expected.length
      },
      30_000,
      "the stream read back"
    )
    expect(stored.map((m) => m.event.id)).toEqual(expected)
    await until(
      () => arrivals.length >= expected.length,
      30_000,
      `the consumer to see every event (${expected.length})`
    )
    console.log(`consumer caught up ${Date.now() - killedAt} ms after the kill`)
    expect(arrivals.map((a) => a.id)).toEqual(expected)

    // The pause: the longest time in which the stream stored none of the org's events, from the kill on.
    const after = arrivals.filter((a) => a.at >= killedAt)
    const firstAfter = after[0].at - killedAt
    const longest = after.reduce((m, a, i) => (i === 0 ? m : Math.max(m, a.at - after[i - 1].at)), firstAfter)
    const resumed = after.find((a) => a.at >= electedAt)!.at - electedAt
    console.log(
      `NATS leader ${leaderName} killed: ${statuses.length} bookings all 201; new leader after ${electedAt - killedAt} ms; ` +
        `first event stored ${firstAfter} ms after the kill (${resumed} ms after the election), longest pause ${longest} ms`
    )
    // The engine's part: publishing goes on within 1 s of the new leader (the relay retries a refused batch every 200 ms).
    expect(resumed).toBeLessThan(1_000)
    expect(longest).toBeLessThan(electedAt - killedAt + 1_000)

    // The killed node comes back and catches up: every replica current, nothing lagging.
    await leader.start()
    await until(
      async () => {
        const replicas = (await streamInfo(watcher!)).cluster?.replicas ?? []
        const back = replicas.find((r) => r.name === leader.name)
        return replicas.length === 2 && back !== undefined && back.current && !back.offline && (back.lag ?? 0) === 0
      },
      30_000,
      `node ${leader.name} current again`,
      250
    )
    const catchUpMs = Date.now() - killedAt
    const info = await streamInfo(watcher)
    expect(info.state.messages).toBeGreaterThanOrEqual(expected.length)
    console.log(`NATS node ${leader.name} back and current ${catchUpMs} ms after its kill`)
    reading = false
    await reader
  }, 120_000)
})

describe("NATS_STREAM_REPLICAS on a single server", () => {
  it("more replicas than the server can keep: the start stops with one line that names the setting", async () => {
    const single = await startPrivateNats()
    try {
      const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(NatsBusLive(single.url, { replicas: 3 }))))
      expect(exit._tag).toBe("Failure")
      const message = exit._tag === "Failure" ? String(Cause.squash(exit.cause)) : ""
      expect(message).toMatch(/NATS_STREAM_REPLICAS=3: NATS would not make stream EVENTS with 3 replicas \(.+\)/)
      expect(message).not.toContain("\n")
    } finally {
      await single.dispose()
    }
  }, 30_000)
})
