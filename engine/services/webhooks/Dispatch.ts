import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Option, Schedule } from "effect"
import { EndpointBusy, EndpointOff } from "../../errors/index.ts"
import { decideWebhookEndpoint, type WebhookEndpointEvent } from "../../machines/webhookEndpoint.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { type SendResult, WebhookSender } from "../../ports/WebhookSender.ts"
import { columnsOf, machineRow, webhookStore } from "../../store/webhooks.ts"
import { fn } from "../../tracing.ts"
import { type DeliveryRow, type EndpointRow, type EventRow, payloadOf, toDelivery } from "./row.ts"
import { RUN_SIZE, WebhookSettings } from "./Settings.ts"

/** Progress of a run is saved at least this often. */
const SAVE_EVERY_MS = 200
/** How long the live endpoints of an org are remembered for waking them. */
const LIVE_TTL_MS = 2_000

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
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const sender = yield* WebhookSender
    const settings = yield* WebhookSettings
    const store = webhookStore(sql)
    const leaseMs = settings.timeoutMs + 10_000

    /** One POST and what the machine makes of the answer; null when it refuses (the endpoint is off). */
    const attempt = (row: EndpointRow, event: EventRow) =>
      Effect.gen(function* () {
        const result = yield* sender.send({ url: row.url, secret: row.secret, body: payloadOf(event) })
        const at = yield* clock.now
        const decision = decideWebhookEndpoint(machineRow(row), machineEvent(result, at.toISOString()))
        const columns = decision.ok ? columnsOf(decision.state, decision.context, at) : null
        if (columns === null) return null
        const log: DeliveryRow = {
          event_id: event.id,
          status: result.status,
          duration_ms: result.durationMs,
          error: result.error,
          at
        }
        const next: EndpointRow = {
          ...row,
          ...columns,
          cursor_id: result.error === null ? Math.max(row.cursor_id, event.id) : row.cursor_id
        }
        return { next, log }
      })

    const save = (row: EndpointRow, token: string, logs: ReadonlyArray<DeliveryRow>) =>
      store.record(row.id, token, leaseMs, {
        cursor: row.cursor_id,
        state: row.state,
        context: row.context,
        retry_at: row.retry_at,
        logs
      })

    /** What a run has sent since its last save. */
    interface Progress {
      row: EndpointRow
      logs: Array<DeliveryRow>
    }
    const flush = (p: Progress, token: string) =>
      Effect.suspend(() => {
        const logs = p.logs
        p.logs = []
        return logs.length === 0 ? Effect.succeed(true) : save(p.row, token, logs)
      })

    /**
     * Sends pending events in order until one fails. Progress is saved on a failure, at the end, and at least every
     * SAVE_EVERY_MS (which renews the lease and notices an endpoint switched off meanwhile, e.g. its key revoked).
     */
    const deliverPending = (p: Progress, token: string) =>
      Effect.gen(function* () {
        let savedAt = Date.now()
        for (const event of yield* store.pending(p.row, RUN_SIZE)) {
          const done = yield* attempt(p.row, event)
          if (done === null) break
          p.row = done.next
          p.logs.push(done.log)
          const failed = done.log.error !== null
          if (failed || Date.now() - savedAt >= SAVE_EVERY_MS) {
            const kept = yield* flush(p, token)
            savedAt = Date.now()
            if (!kept || failed) break
          }
        }
        yield* flush(p, token)
        yield* store.prune(p.row.id)
      })

    /**
     * One run of an endpoint (up to RUN_SIZE events). True when it is healthy and more events wait; "held" when
     * another instance holds it (or it is not live).
     */
    const run = fn("WebhookDispatch.run")(function* (id: string) {
      const token = randomUUID()
      const claimed = yield* store.claim(id, token, leaseMs, yield* clock.now)
      if (Option.isNone(claimed)) return "held" as const
      const progress: Progress = { row: claimed.value, logs: [] }
      // Stopped (shutdown) or failed: keep what was delivered, then give the endpoint back.
      const giveBack = Effect.ignore(Effect.zipRight(flush(progress, token), store.release(id, token)))
      return yield* Effect.zipRight(deliverPending(progress, token), store.release(id, token)).pipe(
        Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : giveBack))
      )
    }, Effect.orDie)

    /** Sends one past event again, between runs; a 410 switches the endpoint off. Cursor and status stay. */
    const redeliver = fn("WebhookDispatch.redeliver")(function* (endpointId: string, event: EventRow) {
      const token = randomUUID()
      const claimed = yield* store.claim(endpointId, token, leaseMs, null).pipe(
        Effect.orDie,
        Effect.flatMap(
          Option.match({
            onNone: () =>
              Effect.fail(new EndpointBusy({ message: "the endpoint is taking a delivery; retry shortly" })),
            onSome: Effect.succeed
          })
        ),
        Effect.retry({ schedule: Schedule.spaced("25 millis"), times: 80 })
      )
      return yield* Effect.gen(function* () {
        const done = yield* attempt(claimed, event)
        if (done === null) return yield* new EndpointOff({ message: "The webhook endpoint is switched off" })
        // Only a 410 changes the endpoint (off); cursor, status and retry time stay as they were.
        const row =
          done.next.state === "off"
            ? { ...claimed, state: done.next.state, context: done.next.context, retry_at: done.next.retry_at }
            : claimed
        yield* save(row, token, [done.log]).pipe(Effect.orDie)
        yield* store.prune(row.id).pipe(Effect.orDie)
        return toDelivery(done.log)
      }).pipe(Effect.ensuring(Effect.ignore(store.release(endpointId, token))))
    })

    const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
    /**
     * Live endpoints of these orgs (woken by their events), remembered per org for LIVE_TTL_MS so a stream of
     * events does not look them up again each time. This instance forgets an org when it adds or deletes one of its
     * endpoints; one added on another instance is woken by that instance, which sees the same events, and by the
     * sweep in any case.
     */
    const known = new Map<string, { readonly ids: ReadonlyArray<string>; readonly at: number }>()
    /** Bumped by forget: a lookup that started before it does not store what it found. */
    let generation = 0
    const liveOf = (orgIds: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        const now = Date.now()
        const started = generation
        const missing = orgIds.filter((o) => {
          const k = known.get(o)
          return k === undefined || now - k.at > LIVE_TTL_MS
        })
        const cached = () => orgIds.flatMap((o) => known.get(o)?.ids ?? [])
        if (missing.length === 0) return Effect.succeed(cached())
        return store.liveOf(missing).pipe(
          Effect.orDie,
          Effect.map((rows) => {
            const by = new Map<string, Array<string>>(missing.map((o) => [o, []]))
            for (const r of rows) by.get(r.org_id)?.push(r.id)
            if (started === generation) {
              if (known.size > 10_000) known.clear()
              for (const [o, list] of by) known.set(o, { ids: list, at: now })
            }
            return orgIds.flatMap((o) => by.get(o) ?? known.get(o)?.ids ?? [])
          })
        )
      })
    /** After this instance adds or removes an endpoint of the org. */
    const forget = (orgId: string) =>
      Effect.sync(() => {
        generation++
        known.delete(orgId)
      })
    /** Failing endpoints due for their 5-minute retry by the engine clock. */
    const due = Effect.flatMap(clock.now, store.due).pipe(Effect.orDie, Effect.map(ids))
    /**
     * Healthy endpoints with events waiting that nobody is delivering, and how long until one that another
     * instance holds is free (null: none held).
     */
    const behind = store.behind().pipe(
      Effect.orDie,
      Effect.map((rows) => ({
        ids: ids(rows.filter((r) => r.wait_ms === 0)),
        heldMs: rows.some((r) => r.wait_ms > 0)
          ? Math.min(...rows.filter((r) => r.wait_ms > 0).map((r) => r.wait_ms))
          : null
      }))
    )

    return { run, redeliver, liveOf, forget, due, behind } as const
  })
}) {}
