import { Context, Effect } from "effect"

// All engine time comes from here. SQL never calls now() for a business rule.
export class EngineClock extends Context.Tag("EngineClock")<
  EngineClock,
  {
    readonly now: Effect.Effect<Date>
    /** true for the test clock (CLOCK=test), which stands still until advanced. */
    readonly test: boolean
    /** Only the test clock moves; the system clock refuses. */
    readonly advance: (seconds: number) => Effect.Effect<Date, string>
  }
>() {}

export const now = Effect.flatMap(EngineClock, (c) => c.now)
