import { Deferred, Effect, type Exit } from "effect"

interface Batch<A, E> {
  readonly result: Deferred.Deferred<A, E>
  /** The read, with the context of the caller who opened the batch. */
  readonly run: Effect.Effect<A, E>
}
interface Slot<A, E> {
  current: Batch<A, E>
  pending: Batch<A, E> | undefined
}

/**
 * Reads of one key share their runs, and every caller still gets a run that began after it asked: the first caller
 * starts a run; callers who come while it runs join the next one, started when it ends. So a read never answers with
 * what the database held before the caller asked (a commit told to anyone before the request was sent is in its
 * answer), and however many callers ask at once, one key costs at most one run at a time. Used for the widget's
 * availability, which a sale's page polls from every open browser (bench/README.md, flash sale).
 *
 * A run goes on when its callers go away (it is forked as a daemon, with its first caller's context), so the others
 * still get their answer. The key must hold everything the answer depends on (the org among it).
 */
export const makeCoalescer = <A, E>() => {
  const slots = new Map<string, Slot<A, E>>()

  const start = (key: string, slot: Slot<A, E>, batch: Batch<A, E>): Effect.Effect<void> =>
    Effect.asVoid(
      Effect.forkDaemon(
        batch.run.pipe(
          Effect.exit,
          Effect.flatMap((exit: Exit.Exit<A, E>) => Deferred.done(batch.result, exit)),
          Effect.ensuring(
            Effect.suspend(() => {
              const next = slot.pending
              slot.pending = undefined
              if (next === undefined) {
                slots.delete(key)
                return Effect.void
              }
              slot.current = next
              return start(key, slot, next)
            })
          )
        )
      )
    )

  return <R>(key: string, read: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.gen(function* () {
      const batch: Batch<A, E> = {
        result: yield* Deferred.make<A, E>(),
        run: Effect.provide(read, yield* Effect.context<R>())
      }
      // One synchronous step: no other fiber sees the slot between the look and the change.
      const joined = yield* Effect.sync(() => {
        const slot = slots.get(key)
        if (slot === undefined) {
          const opened: Slot<A, E> = { current: batch, pending: undefined }
          slots.set(key, opened)
          return { batch, open: opened }
        }
        if (slot.pending === undefined) slot.pending = batch
        return { batch: slot.pending, open: undefined }
      })
      if (joined.open !== undefined) yield* start(key, joined.open, batch)
      return yield* Deferred.await(joined.batch.result)
    })
}
