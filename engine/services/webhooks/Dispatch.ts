import { SqlClient } from "@effect/sql"
import { Effect, Exit, Option, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { decideWebhookEndpoint, type WebhookEndpointEvent } from "../../machines/webhookEndpoint.ts"
import { type SendResult, WebhookSender } from "../../ports/WebhookSender.ts"
import { conflict } from "../../schema/errors.ts"
import { EngineClock } from "../Clock.ts"
import { type EndpointRow, type EventRow, machineRow, payloadOf, type StoredState, toDelivery } from "./row.ts"
import { RETRY_INTERVAL_MS, RUN_SIZE, WebhookSettings } from "./Settings.ts"
import { endpointStore, type Outcome } from "./store.ts"

const machineEvent = (r: SendResult, at: string): WebhookEndpointEvent =>
  r.error === null
    ? { type: "delivered", status: r.status ?? 200, at }
    : r.status === 410
    ? { type: "gone", at }
    : { type: "failed", status: r.status, error: r.error, at }

/**
 * Delivers an endpoint's events in order, one request at a time: claim it with a lease, POST each pending
 * event, let the endpoint machine decide what the answer means, store cursor and state, give it back.
 */
export class WebhookDispatch extends Effect.Service<WebhookDispatch>()("WebhookDispatch", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const sender = yield* WebhookSender
    const settings = yield* WebhookSettings
    const store = endpointStore(sql)
    const leaseMs = settings.timeoutMs + 10_000

    /** One POST and what it changes; null when the machine refuses (the endpoint is off). */
    const attempt = (row: EndpointRow, event: EventRow) =>
      Effect.gen(function*() {
        const result = yield* sender.send({ url: row.url, secret: row.secret, body: payloadOf(event) })
        const at = yield* clock.now
        const decision = decideWebhookEndpoint(machineRow(row), machineEvent(result, at.toISOString()))
        if (!decision.ok) return null
        const state = decision.state as StoredState
        const outcome: Outcome = {
          cursor: result.error === null ? Math.max(row.cursor_id, event.id) : row.cursor_id,
          state,
          context: decision.context,
          retryAt: state === "failing" ? new Date(at.getTime() + RETRY_INTERVAL_MS) : null,
          log: { event_id: event.id, status: result.status, duration_ms: result.durationMs, error: result.error, at }
        }
        return outcome
      })

    const deliverPending = (claimed: EndpointRow, token: string) =>
      Effect.gen(function*() {
        let row = claimed
        for (const event of yield* store.pending(row, RUN_SIZE)) {
          const outcome = yield* attempt(row, event)
          if (outcome === null) break
          const kept = yield* store.record(row.id, token, leaseMs, outcome)
          if (!kept || outcome.log.error !== null) break
          row = { ...row, state: outcome.state, context: outcome.context, cursor_id: outcome.cursor }
        }
        yield* store.prune(row.id)
      })

    /** One run of an endpoint (up to RUN_SIZE events). True when it is healthy and more events wait. */
    const run = Effect.fn("WebhookDispatch.run")(function*(id: string) {
      const token = randomUUID()
      const claimed = yield* store.claim(id, token, leaseMs, yield* clock.now)
      if (Option.isNone(claimed)) return false
      return yield* Effect.zipRight(deliverPending(claimed.value, token), store.release(id, token)).pipe(
        Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.ignore(store.release(id, token))))
      )
    }, Effect.orDie)

    /** Sends one past event again, between runs; a 410 switches the endpoint off. Cursor and status stay. */
    const redeliver = Effect.fn("WebhookDispatch.redeliver")(function*(endpointId: string, event: EventRow) {
      const token = randomUUID()
      const claimed = yield* store.claim(endpointId, token, leaseMs, null).pipe(
        Effect.orDie,
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(conflict("endpoint_busy", "the endpoint is taking a delivery; retry shortly")),
          onSome: Effect.succeed
        })),
        Effect.retry({ schedule: Schedule.spaced("25 millis"), times: 80 })
      )
      const row = claimed
      return yield* Effect.gen(function*() {
        const outcome = yield* attempt(row, event)
        if (outcome === null) return yield* conflict("endpoint_off", "The webhook endpoint is switched off")
        const off = outcome.state === "off"
        yield* store.record(row.id, token, leaseMs, {
          cursor: row.cursor_id,
          state: off ? "off" : row.state,
          context: off ? outcome.context : row.context,
          retryAt: row.retry_at,
          log: outcome.log
        }).pipe(Effect.orDie)
        yield* store.prune(row.id).pipe(Effect.orDie)
        return toDelivery(outcome.log)
      }).pipe(Effect.ensuring(Effect.ignore(store.release(endpointId, token))))
    })

    const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
    /** Live endpoints of these orgs (woken by their events). */
    const liveOf = (orgIds: ReadonlyArray<string>) => store.liveOf(orgIds).pipe(Effect.orDie, Effect.map(ids))
    /** Failing endpoints due for their 5-minute retry by the engine clock. */
    const due = Effect.flatMap(clock.now, store.due).pipe(Effect.orDie, Effect.map(ids))
    /** Healthy endpoints with events waiting that nobody is delivering. */
    const behind = store.behind().pipe(Effect.orDie, Effect.map(ids))

    return { run, redeliver, liveOf, due, behind } as const
  })
}) {}
