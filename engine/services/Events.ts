import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../ports/Clock.ts"
import { Prepared } from "../ports/Prepared.ts"
import { Wakeups } from "../ports/Wakeups.ts"
import type { Actor, Event, NewEvent } from "../schema/event.ts"
import {
  APPEND,
  type EventsFilter as EventsFilterOf,
  LOCK_ORG as LOCK,
  listStatement,
  type EventRow as Row
} from "../store/events.ts"
import { fn, traced } from "../tracing.ts"
import { currentActor } from "./actor.ts"
import { CurrentOrg } from "./CurrentOrg.ts"

export type { NewEvent } from "../schema/event.ts"
export { type EventsFilter, listStatement } from "../store/events.ts"

/** Events are served only once this old, so a cursor never passes one still being written. */
export const SETTLE_MS = 2000

const toEvent = (r: Row): Event => ({
  id: r.id,
  type: r.type,
  data: r.data,
  created_at: r.created_at.toISOString(),
  actor: r.actor
})

export class Events extends Effect.Service<Events>()("Events", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const prepared = yield* Prepared
    const wakeups = yield* Wakeups

    /**
     * Writes events in the caller's transaction (or alone). The org's event row (org_events) is updated in the same
     * statement and stays locked until commit, so within an org ids are handed out in commit order and a reader can
     * never see id N+1 before N; its last_at, never lower than the last one, stamps the events, so created_at never
     * goes down as ids go up and the 2 second cutoff cannot skip one. Call it last in a transaction (after every row
     * lock) so lock order is always rows -> org events. Each event's id goes into relay_queue in the same statement,
     * for the relay (every writer of events does so: transports/events/relay.ts reads only the queue). Each event
     * carries who made the change: `actor` when the caller knows better (a guest's mail), else the request's.
     */
    const append = (orgId: string, events: ReadonlyArray<NewEvent>, actor?: Actor) =>
      Effect.gen(function* () {
        if (events.length === 0) return
        yield* prepared.run(APPEND, [
          orgId,
          yield* clock.now,
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          JSON.stringify(actor ?? (yield* currentActor))
        ])
        yield* wakeups.poke
      }).pipe(Effect.orDie, traced("Events.append"))

    /**
     * Takes the org's event row lock until commit without writing an event: whoever holds it knows that no event
     * of the org is in flight, so the newest id is final (webhooks.create starts an endpoint after it).
     */
    const lockOrg = (orgId: string) =>
      Effect.gen(function* () {
        yield* prepared.run(LOCK, [orgId, yield* clock.now])
      }).pipe(Effect.orDie)

    const list = fn("Events.list")(function* (q: EventsFilterOf) {
      const org = yield* CurrentOrg
      const after = q.after ?? 0
      const cutoff = new Date((yield* clock.now).getTime() - SETTLE_MS)
      const rows = yield* listStatement(sql, org.id, { ...q, after }, cutoff).pipe(Effect.orDie)
      const data = rows.map(toEvent)
      const next_after = data.reduce((m, e) => Math.max(m, e.id), after)
      return { data, next_after }
    })

    return { append, lockOrg, list } as const
  })
}) {}
