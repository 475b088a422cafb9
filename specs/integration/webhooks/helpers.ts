import { Effect, Option } from "effect"
import { expect } from "vitest"
import type { AppConfig } from "../../../app/config.ts"
import { Events } from "../../../engine/services/Events.ts"
import type { TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"

/** Real NATS when NATS_URL is set (CI), else the in-process bus. */
export const busConfig = (): Partial<AppConfig> => ({
  natsUrl: process.env.NATS_URL ? Option.some(process.env.NATS_URL) : Option.none()
})

/** Commits `count` events of `type` for the org, each in its own transaction (as services do), `parallel` at a time. */
export const commitEvents = (app: TestApp, orgId: string, type: string, count = 1, parallel = 1) =>
  runEngine(
    app,
    Effect.flatMap(Events, (events) =>
      Effect.forEach(
        Array.from({ length: count }, (_, i) => i),
        (i) => events.append(orgId, [{ type, data: { n: i } }]),
        { concurrency: parallel, discard: true }
      )
    )
  )

export const createHook = async (app: TestApp, key: string, url: string, events: Array<string> = ["org.updated"]) => {
  const res = await app.call(key, "POST", "/api/v1/webhooks", { url, events })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as {
    id: string
    secret: string
    url: string
    events: Array<string>
    active: boolean
    api_key_id: string
  }
}

export const endpoint = async (app: TestApp, key: string, id: string) =>
  (await app.call(key, "GET", `/api/v1/webhooks/${id}`)).body
