import { Effect, Option } from "effect"
import { expect, it } from "vitest"
import { Events } from "../../../engine/services/Events.ts"
import { startApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { natsUrl, readStream } from "../../support/nats.ts"
import { waitFor } from "../../support/receiver.ts"
import { allRelayed, ids, orgEvents } from "../events/helpers.ts"

// An event over NATS's max_payload (1 MB by default) used to make the relay retry it forever, and no later event of
// any org was relayed again. It now goes by reference (data null, data_omitted) and the stream keeps its order.
it("an event over max_payload goes by reference; it and every later event, of every org, are relayed in order", async () => {
  const app = await startApp({ natsUrl: Option.some(natsUrl) })
  try {
    const a = await app.newOrg()
    const b = await app.newOrg()
    await runEngine(
      app,
      Effect.flatMap(Events, (events) =>
        Effect.gen(function* () {
          yield* events.append(a.id, [{ type: "offering.updated", data: { n: 0 } }])
          yield* events.append(a.id, [{ type: "offering.updated", data: { n: 1, blob: "x".repeat(1_100_000) } }])
          yield* events.append(b.id, [{ type: "offering.updated", data: { n: 2 } }])
          yield* events.append(a.id, [{ type: "offering.updated", data: { n: 3 } }])
        })
      )
    )
    await waitFor(allRelayed(app, a.id), 60_000, "org a relayed")
    await waitFor(allRelayed(app, b.id), 60_000, "org b relayed")
    const stored = await readStream(natsUrl, `events.${a.id}.>`)
    expect(stored.map((m) => m.event.id)).toEqual(ids(await orgEvents(app, a.id)))
    const [first, big, last] = stored.map(
      (m) => m.event as unknown as { data: any; data_omitted?: { reason: string; bytes: number } }
    )
    expect(first.data).toEqual({ n: 0 })
    expect(big.data).toBeNull()
    expect(big.data_omitted?.reason).toBe("too_large")
    expect(big.data_omitted!.bytes).toBeGreaterThan(1_100_000)
    expect(last.data).toEqual({ n: 3 })
    expect((await readStream(natsUrl, `events.${b.id}.>`)).map((m) => m.event.data)).toEqual([{ n: 2 }])
  } finally {
    await app.close()
  }
}, 180_000)
