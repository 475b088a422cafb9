import { Effect } from "effect"
import { ClockNotTest } from "../../../engine/errors/index.ts"
import { EngineClock } from "../../../engine/ports/Clock.ts"
import { Jobs } from "../../../engine/services/Jobs.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const clockHandlers = defineGroup(Api, "clock", (h) =>
  Effect.gen(function* () {
    const clock = yield* EngineClock
    const jobs = yield* Jobs
    const shown = (d: Date) => ({ now: d.toISOString(), test: clock.test })
    return h
      .handle("get", () => Effect.map(clock.now, shown))
      .handle("advance", ({ payload }) =>
        clock.advance(payload.advance_seconds).pipe(
          Effect.mapError((message) => new ClockNotTest({ message })),
          Effect.tap(() => jobs.runDue),
          Effect.map(shown)
        )
      )
  })
)
