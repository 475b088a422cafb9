import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Signals } from "../../ports/Signals.ts"
import { Parked } from "../Parked.ts"

/** Where the database tells every instance a time's places as a commit left them (engine/store/rules/places.sql). */
export const PLACES_CHANNEL = "session_places"
/** Bookings of one time that one instance lets reach the database at once; the rest wait here for their turn. */
export const ATTEMPTS_PER_TIME = 8
const MAX_ENTRIES = 50_000

/** A time's places as the last commit that changed them left them. */
export interface Places {
  readonly booked: number
  readonly cap: number
  readonly state: string
  readonly startsAt: number
  /** When the first hold keeping a place runs out (epoch ms), read only when no place is left; null: none. */
  readonly lapseAt: number | null
}

/** What the booking path last read of a time's offering (READ), for the org it read it for. */
export interface Known<R> {
  readonly org: string
  readonly offering: string
  readonly read: R
}

interface Entry<R> {
  known?: Known<R>
  places?: Places
  /** Messages heard about this time: a load begun before one is not kept. */
  seq: number
}

interface Lane {
  inflight: number
  readonly waiters: Set<() => void>
}

export const parsePlaces = (payload: string): { id: string; places: Places } | undefined => {
  const [id, booked, cap, state, startsAt, lapse] = payload.split(" ")
  if (lapse === undefined) return undefined
  return {
    id,
    places: {
      booked: Number(booked),
      cap: Number(cap),
      state,
      startsAt: Number(startsAt),
      lapseAt: lapse === "-" ? null : Number(lapse)
    }
  }
}

/** No place left, none about to come back by itself: a hold that ran out gives its place back before the lapse job. */
export const isFull = (p: Places, now: Date) => p.booked >= p.cap && (p.lapseAt === null || now.getTime() < p.lapseAt)

/**
 * The places of each time, per instance, kept by the database's notices (a commit that fills a time, or changes one
 * that is or was full, tells every instance, places.sql; short of full they may be behind, and nothing refuses on
 * them), so a guest asking for a full time is refused without a transaction or the
 * time's row lock; the database's capacity rule still decides every place given. A time this instance has not heard
 * of, or a listener that cannot vouch it has heard everything (Signals.sync), refuses nothing here. It also queues
 * bookings of one time: ATTEMPTS_PER_TIME at once reach the database, the rest wait, and are refused here when the
 * time fills meanwhile instead of queueing for its row.
 */
export const placesGate = <R extends { readonly s_starts_at: Date | null }>() =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const signals = yield* Signals
    const parking = yield* Parked
    const entries = new Map<string, Entry<R>>()
    const lanes = new Map<string, Lane>()
    // Offering notices and resets heard: what a READ begun before one saw of the offering is not kept.
    let epoch = 0

    const entry = (id: string) => {
      let e = entries.get(id)
      if (e === undefined) {
        if (entries.size >= MAX_ENTRIES) entries.clear()
        e = { seq: 0 }
        entries.set(id, e)
      }
      return e
    }
    const wakeAll = (id: string) => lanes.get(id)?.waiters.forEach((w) => w())
    // Whether the last sync vouched for what this instance heard. When it did not (no listener), waiters woken for a
    // full time cannot be refused from memory and would only wait again: waking them all at every turn given back
    // would cost each turn the whole queue (a crowd's CPU squared), so they are then let in one turn at a time.
    let vouched = true
    const wakeFull = (id: string) => {
      if (vouched) return wakeAll(id)
      const l = lanes.get(id)
      if (l === undefined) return
      let free = ATTEMPTS_PER_TIME - l.inflight
      for (const next of l.waiters) {
        if (free-- <= 0) break
        next()
      }
    }

    const heard = (payload: string) => {
      if (payload.startsWith("o:")) {
        epoch++
        const offering = payload.slice(2)
        for (const e of entries.values()) if (e.known?.offering === offering) e.known = undefined
        return
      }
      const told = parsePlaces(payload)
      if (told === undefined) return
      const e = entry(told.id)
      e.seq++
      e.places = told.places
      if (e.known !== undefined && e.known.read.s_starts_at?.getTime() !== told.places.startsAt) e.known = undefined
      // Waiting guests look again: a full time refuses them all; otherwise the next one tries if a turn is free.
      if (isFull(told.places, new Date())) wakeFull(told.id)
      else pass(told.id)
    }
    yield* signals.listen(PLACES_CHANNEL, {
      onMessage: heard,
      onReset: () => {
        epoch++
        entries.clear()
        for (const id of lanes.keys()) wakeAll(id)
      }
    })

    /** What READ found, kept unless an offering notice arrived while it read (`since` is `epoch` before it). */
    const remember = (id: string, known: Known<R>, since: number) => {
      if (since === epoch) entry(id).known = known
    }

    const loading = new Set<string>()
    /**
     * The time's places read now (one query, one at a time per time), kept unless a notice about it came meanwhile; a
     * failed read (a busy pool) leaves the gate as it was.
     */
    const load = (id: string) =>
      loading.has(id)
        ? Effect.void
        : Effect.gen(function* () {
            loading.add(id)
            const e = entry(id)
            const seq = e.seq
            const [row] = yield* sql<{ p: string | null }>`select session_places(${id}::uuid) as p`
            const told = row?.p === null || row === undefined ? undefined : parsePlaces(row.p)
            if (told !== undefined && entries.get(id) === e && e.seq === seq) e.places = told.places
          }).pipe(
            Effect.ensuring(Effect.sync(() => loading.delete(id))),
            // What could not be read now is read by a later refusal: the guest's answer does not wait on it.
            Effect.ignore
          )

    const peek = (id: string) => {
      const e = entries.get(id)
      return e?.known === undefined || e.places === undefined ? undefined : { ...e.known, places: e.places }
    }

    /** Whether the time may be refused here at all (heard full, its offering read): a check before any other. */
    const mayRefuse = (id: string) => {
      const e = entries.get(id)
      return e?.known !== undefined && e.places !== undefined && e.places.booked >= e.places.cap
    }
    /** What the gate holds of a time now; `unchanged` tells later whether a notice or a READ replaced any of it. */
    const look = (id: string) => {
      const e = entries.get(id)
      return e === undefined ? undefined : { id, e, known: e.known, places: e.places }
    }
    const unchanged = (seen: ReturnType<typeof look>) =>
      seen !== undefined &&
      entries.get(seen.id) === seen.e &&
      seen.e.known === seen.known &&
      seen.e.places === seen.places

    const lane = (id: string) => {
      let l = lanes.get(id)
      if (l === undefined) {
        l = { inflight: 0, waiters: new Set() }
        lanes.set(id, l)
      }
      return l
    }
    const tidy = (id: string, l: Lane) => {
      if (l.inflight === 0 && l.waiters.size === 0) lanes.delete(id)
    }

    /** A turn to try the database for this time, if one is free now; `leave` gives it back and wakes the next. */
    const enter = (id: string) => {
      const l = lane(id)
      if (l.inflight >= ATTEMPTS_PER_TIME) return undefined
      l.inflight++
      return Effect.sync(() => {
        l.inflight--
        pass(id)
      })
    }

    // Guests of this instance waiting here (for a turn, or for a sync) do no work meanwhile: they are parked, which the
    // listener's request budget (MAX_INFLIGHT) does not count.
    const parked = <A>(effect: Effect.Effect<A>) => parking.park(effect)

    /** Waits until a turn may be free or the time's places changed. */
    const wait = (id: string) =>
      parked(
        Effect.async<void>((resume) => {
          const l = lane(id)
          const done = () => {
            l.waiters.delete(done)
            resume(Effect.void)
          }
          l.waiters.add(done)
          return Effect.sync(() => {
            l.waiters.delete(done)
            tidy(id, l)
          })
        })
      )

    /**
     * The time's waiting guests are told to look again: all of them when it is full (each is refused at once, all
     * after one sync), else the next one if a turn is free. Called when a turn is given back and when a guest who
     * waited leaves without one.
     */
    const pass = (id: string) => {
      const l = lanes.get(id)
      if (l === undefined) return
      const places = entries.get(id)?.places
      if (places !== undefined && isFull(places, new Date())) wakeFull(id)
      else if (l.inflight < ATTEMPTS_PER_TIME) {
        const [next] = l.waiters
        if (next !== undefined) next()
      }
      tidy(id, l)
    }

    return {
      remember,
      load,
      peek,
      mayRefuse,
      look,
      unchanged,
      enter,
      wait,
      pass,
      sync: Effect.tap(parked(signals.sync), (ok) => {
        vouched = ok
      }),
      /** `sync` for a caller outside a fiber, parked the same way while it waits. */
      synced: () => {
        const release = parking.hold()
        return signals.synced().then(
          (ok) => {
            release()
            vouched = ok
            return ok
          },
          () => {
            release()
            return false
          }
        )
      },
      get epoch() {
        return epoch
      }
    } as const
  })
