import { Duration, Effect, Layer, Option } from "effect"
import { EngineClock } from "../engine/ports/Clock.ts"
import { Wakeups, waitForWake } from "../engine/ports/Wakeups.ts"
import { Jobs } from "../engine/services/Jobs.ts"
import type { AppConfig } from "./config.ts"

/** A pass of the jobs at most this often, however often the scheduler is woken. */
const MIN_GAP_MS = 1_000
/** Longest sleep with nothing due and nothing waking the scheduler. */
const IDLE_MS = 5 * 60_000

/**
 * Runs background jobs on the system clock (CLOCK=test runs them when advanced): a pass, then sleep until the
 * earliest job has work, or a writer wakes it (then once more a second later: a poke can come before its commit),
 * or five minutes. At most one pass a second, so under load it runs each second and idle it does nothing.
 */
export const SchedulerLive = (config: Pick<AppConfig, "clock">) =>
  config.clock === "test"
    ? Layer.empty
    : Layer.scopedDiscard(
        Effect.gen(function* () {
          const jobs = yield* Jobs
          const clock = yield* EngineClock
          const wakes = yield* (yield* Wakeups).subscribe
          const loop = Effect.gen(function* () {
            let trailing = false
            while (true) {
              const started = Date.now()
              yield* jobs.runDue
              const now = (yield* clock.now).getTime()
              const next = Option.match(yield* jobs.nextDue, {
                onNone: () => IDLE_MS,
                onSome: (at) => at.getTime() - now
              })
              const gap = Math.max(0, MIN_GAP_MS - (Date.now() - started))
              const wait = Math.max(gap, Math.min(next, IDLE_MS, trailing ? MIN_GAP_MS : IDLE_MS))
              trailing = yield* waitForWake(wakes, Duration.millis(wait))
              if (trailing) yield* Effect.sleep(Duration.millis(Math.max(0, MIN_GAP_MS - (Date.now() - started))))
            }
          })
          yield* Effect.forkScoped(loop)
        })
      )
