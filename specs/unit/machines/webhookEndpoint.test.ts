import { describe, expect, it } from "vitest"
import { rowOf } from "../../../engine/machines/decide.ts"
import {
  decideWebhookEndpoint,
  startWebhookEndpoint,
  type WebhookEndpointContext,
  type WebhookEndpointDecision,
  type WebhookEndpointEvent,
  type WebhookEndpointRow,
  type WebhookEndpointState,
  webhookEndpointActive,
  webhookEndpointCodes,
  webhookEndpointMessages
} from "../../../engine/machines/webhookEndpoint.ts"

const NOW = "2030-01-15T00:00:00.000Z"
const base: WebhookEndpointContext = {
  last_status: null,
  last_error: null,
  failing_since: null,
  attempts: 0,
  off_at: null
}
const STATES = { active: "active", failing: "failing", off: "off", deleted: "deleted" } as const satisfies Record<
  string,
  WebhookEndpointState
>
type StateName = keyof typeof STATES
const contextFor: Record<StateName, Partial<WebhookEndpointContext>> = {
  active: { last_status: 200 },
  failing: { last_status: 500, last_error: "HTTP 500", failing_since: "2030-01-14T00:00:00.000Z", attempts: 3 },
  off: { last_status: 410, last_error: "410 Gone: endpoint switched off", off_at: "2030-01-14T00:00:00.000Z" },
  deleted: {}
}
const row = (state: StateName): WebhookEndpointRow => ({
  value: STATES[state],
  context: { ...base, ...contextFor[state] }
})

const EVENTS = {
  delivered: { type: "delivered", at: NOW, status: 204 },
  failed: { type: "failed", at: NOW, status: null, error: "timeout after 5s" },
  gone: { type: "gone", at: NOW },
  key_revoked: { type: "key_revoked", at: NOW },
  delete: { type: "delete", at: NOW }
} as const satisfies { [K in WebhookEndpointEvent["type"]]: Extract<WebhookEndpointEvent, { type: K }> }
type EventName = keyof typeof EVENTS

const TABLE: Record<StateName, Record<EventName, StateName | `!${string}`>> = {
  active: { delivered: "active", failed: "failing", gone: "off", key_revoked: "off", delete: "deleted" },
  failing: { delivered: "active", failed: "failing", gone: "off", key_revoked: "off", delete: "deleted" },
  off: {
    delivered: "!endpoint_off",
    failed: "!endpoint_off",
    gone: "!endpoint_off",
    key_revoked: "!endpoint_off",
    delete: "deleted"
  },
  deleted: {
    delivered: "!endpoint_deleted",
    failed: "!endpoint_deleted",
    gone: "!endpoint_deleted",
    key_revoked: "!endpoint_deleted",
    delete: "!endpoint_deleted"
  }
}

const ok = (decision: WebhookEndpointDecision) => {
  if (!decision.ok) throw new Error(`refused: ${decision.code}`)
  return decision
}

describe("webhook endpoint machine: every state × every event", () => {
  for (const state of Object.keys(TABLE) as Array<StateName>) {
    for (const event of Object.keys(EVENTS) as Array<EventName>) {
      const expected = TABLE[state][event]
      it(`${state} + ${event} -> ${expected}`, () => {
        const decision = decideWebhookEndpoint(row(state), EVENTS[event])
        if (expected.startsWith("!")) {
          const code = expected.slice(1) as keyof typeof webhookEndpointMessages
          expect(decision).toEqual({ ok: false, code, message: webhookEndpointMessages[code] })
        } else {
          const d = ok(decision)
          expect([d.state, d.emits, d.tasks]).toEqual([expected, [], []])
        }
      })
    }
  }

  it("the table names every refusal code", () => {
    const used = new Set(
      Object.values(TABLE).flatMap((e) =>
        Object.values(e)
          .filter((x) => x.startsWith("!"))
          .map((x) => x.slice(1))
      )
    )
    expect([...used].sort()).toEqual([...webhookEndpointCodes].sort())
  })
})

describe("webhook endpoint machine: the spec's Webhooks rules", () => {
  it("a new endpoint is active", () => {
    const d = startWebhookEndpoint()
    expect([d.state, d.context, d.emits, webhookEndpointActive(d.state)]).toEqual(["active", base, [], true])
  })

  it("anything but 2xx stops delivery there; retries keep it failing; a 2xx resumes it", () => {
    const stopped = ok(
      decideWebhookEndpoint(row("active"), { type: "failed", at: NOW, status: 302, error: "redirect" })
    )
    expect(stopped.context).toMatchObject({ last_status: 302, last_error: "redirect", failing_since: NOW, attempts: 1 })
    const later = "2030-01-15T00:05:00.000Z"
    const retried = ok(
      decideWebhookEndpoint(rowOf(stopped), { type: "failed", at: later, status: 503, error: "HTTP 503" })
    )
    expect(retried.context).toMatchObject({ last_status: 503, failing_since: NOW, attempts: 2 })
    expect(webhookEndpointActive(retried.state)).toBe(true)
    const resumed = ok(decideWebhookEndpoint(rowOf(retried), { type: "delivered", at: later, status: 200 }))
    expect([resumed.state, resumed.context]).toEqual(["active", { ...base, last_status: 200 }])
  })

  it("active + 410 Gone -> active false, reason in last_error", () => {
    for (const from of ["active", "failing"] as const) {
      const d = ok(decideWebhookEndpoint(row(from), EVENTS.gone))
      expect([
        d.state,
        webhookEndpointActive(d.state),
        d.context.last_status,
        d.context.last_error,
        d.context.off_at
      ]).toEqual(["off", false, 410, "410 Gone: endpoint switched off", NOW])
    }
  })

  it("active + its API key revoked -> active false at once", () => {
    const d = ok(decideWebhookEndpoint(row("active"), EVENTS.key_revoked))
    expect([d.state, webhookEndpointActive(d.state), d.context.last_error]).toEqual([
      "off",
      false,
      "API key revoked: endpoint switched off"
    ])
  })

  it("persist -> JSON -> restore -> continue", () => {
    const through = (r: WebhookEndpointRow) => JSON.parse(JSON.stringify(r)) as WebhookEndpointRow
    let r = through(rowOf(startWebhookEndpoint()))
    for (const event of [EVENTS.failed, EVENTS.failed, EVENTS.delivered, EVENTS.failed, EVENTS.gone] as const) {
      r = through(rowOf(ok(decideWebhookEndpoint(r, event))))
    }
    expect([r.value, r.context.attempts, r.context.last_status]).toEqual(["off", 1, 410])
    expect(decideWebhookEndpoint(r, EVENTS.delivered)).toMatchObject({ ok: false, code: "endpoint_off" })
    expect(ok(decideWebhookEndpoint(r, EVENTS.delete)).state).toBe("deleted")
  })
})
