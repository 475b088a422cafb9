import { SqlError } from "@effect/sql/SqlError"
import { Cause } from "effect"
import { describe, expect, it } from "vitest"
import { databaseUnreachable } from "../../../transports/shared/unavailable.ts"

// Which failures are the database being out of reach (503 unavailable, Retry-After) rather than a bug (500).
describe("databaseUnreachable", () => {
  const wrapped = (cause: unknown) => Cause.fail(new SqlError({ message: "booking_read: failed", cause }))

  it("is true for pg's own connect time-out, as a crowd that keeps the event loop busy meets it", () => {
    expect(databaseUnreachable(wrapped(new Error("timeout expired")))).toBe(true)
    expect(databaseUnreachable(Cause.die(new Error("timeout expired")))).toBe(true)
  })

  it("is true for the engine's own time-out and for connection-level codes", () => {
    expect(databaseUnreachable(wrapped(Object.assign(new Error("x"), { code: "ETIMEDOUT" })))).toBe(true)
    expect(databaseUnreachable(wrapped(Object.assign(new Error("too many clients"), { code: "53300" })))).toBe(true)
  })

  it("is false for a bug or a constraint, even one whose message mentions a time-out", () => {
    expect(databaseUnreachable(wrapped(Object.assign(new Error("duplicate key"), { code: "23505" })))).toBe(false)
    expect(databaseUnreachable(Cause.die(new TypeError("cannot read properties of undefined")))).toBe(false)
    expect(databaseUnreachable(Cause.die(new Error("the hold's timeout expired yesterday")))).toBe(false)
  })
})
