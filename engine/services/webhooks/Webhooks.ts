import { randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { EndpointOff, InvalidEvents, InvalidUrl, notFound, TooManyWebhooks } from "../../errors/index.ts"
import { startWebhookEndpoint } from "../../machines/webhookEndpoint.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { WebhookSender } from "../../ports/WebhookSender.ts"
import { isEventType, MAX_ACTIVE_WEBHOOKS, type WebhookCreate } from "../../schema/webhook.ts"
import { transaction } from "../../store/transaction.ts"
import { webhookStore } from "../../store/webhooks.ts"
import { fn, traced } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { WebhookDispatch } from "./Dispatch.ts"
import { type DeliveryRow, type EndpointRow, type EventRow, toDelivery, toEndpoint } from "./row.ts"
import { LOG_SIZE } from "./Settings.ts"

const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`

/** Webhook endpoints of the current org: create, list, get, delete, delivery log and redeliver. */
export class Webhooks extends Effect.Service<Webhooks>()("Webhooks", {
  dependencies: [WebhookDispatch.Default, Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const sender = yield* WebhookSender
    const dispatch = yield* WebhookDispatch
    const orgEvents = yield* Events
    const store = webhookStore(sql)

    const load = (id: string) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const rows =
          yield* sql<EndpointRow>`select * from webhook_endpoints where id = ${id}::uuid and org_id = ${org.id}`.pipe(
            Effect.orDie
          )
        return yield* Option.match(Option.fromNullable(rows[0]), {
          onNone: () => Effect.fail(notFound("webhook endpoint")),
          onSome: Effect.succeed
        })
      })

    const create = fn("Webhooks.create")(function* (input: WebhookCreate) {
      const org = yield* CurrentOrg
      const refusal = sender.check(input.url)
      if (refusal !== null) return yield* new InvalidUrl({ message: `url: ${refusal}` })
      const unknown = input.events.filter((t) => !isEventType(t))
      if (unknown.length > 0)
        return yield* new InvalidEvents({ message: `events: unknown event types ${unknown.join(", ")}` })
      const row = {
        id: randomUUID(),
        org_id: org.id,
        url: input.url,
        events: [...new Set(input.events)],
        secret: newSecret(),
        api_key_id: org.sessionId === undefined ? org.apiKeyId : null,
        created_at: yield* clock.now
      }
      // The org's event lock: parallel creates count one after the other, and no event of the org is in flight,
      // so the newest event id is exact and the endpoint starts with the next one.
      yield* Effect.gen(function* () {
        yield* orgEvents.lockOrg(org.id)
        const [{ n }] = yield* sql<{
          n: number
        }>`select count(*)::int as n from webhook_endpoints where org_id = ${org.id} and state <> 'off'`
        if (n >= MAX_ACTIVE_WEBHOOKS) {
          return yield* new TooManyWebhooks({
            message: `at most ${MAX_ACTIVE_WEBHOOKS} active webhook endpoints per org`
          })
        }
        const [{ last }] = yield* sql<{
          last: number
        }>`select coalesce(max(id), 0) as last from events where org_id = ${org.id}`
        yield* store.insert({ ...row, cursor_id: last }, startWebhookEndpoint())
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      yield* dispatch.forget(org.id)
      const { id, url, events, secret, api_key_id, created_at } = row
      return { id, url, events, active: true, secret, api_key_id, created_at: created_at.toISOString() }
    })

    const list = Effect.gen(function* () {
      const org = yield* CurrentOrg
      const rows =
        yield* sql<EndpointRow>`select * from webhook_endpoints where org_id = ${org.id} order by created_at, id`.pipe(
          Effect.orDie
        )
      return { data: rows.map(toEndpoint) }
    }).pipe(traced("Webhooks.list"))

    const get = fn("Webhooks.get")(function* (id: string) {
      return toEndpoint(yield* load(id))
    })

    const remove = fn("Webhooks.delete")(function* (id: string) {
      const row = yield* load(id)
      const now = yield* clock.now
      yield* store
        .apply(row, { type: "delete", at: now.toISOString() }, now)
        .pipe(Effect.catchTag("SqlError", Effect.die))
      yield* dispatch.forget(row.org_id)
      return { id: row.id, deleted: true }
    })

    const deliveries = fn("Webhooks.deliveries")(function* (id: string) {
      const row = yield* load(id)
      const rows = yield* sql<DeliveryRow>`
        select event_id, status, duration_ms, error, at from webhook_deliveries
        where endpoint_id = ${row.id} order by id desc limit ${LOG_SIZE}`.pipe(Effect.orDie)
      return { data: rows.map(toDelivery) }
    })

    const redeliver = fn("Webhooks.redeliver")(function* (id: string, eventId: number) {
      const org = yield* CurrentOrg
      const row = yield* load(id)
      if (row.state === "off") return yield* new EndpointOff({ message: "The webhook endpoint is switched off" })
      const events = yield* sql<EventRow>`
        select id, type, data, created_at from events
        where id = ${eventId} and org_id = ${org.id} and type = any(${row.events})`.pipe(Effect.orDie)
      if (events.length === 0) return yield* notFound("event")
      return yield* dispatch.redeliver(row.id, events[0])
    })

    return { create, list, get, remove, deliveries, redeliver } as const
  })
}) {}
