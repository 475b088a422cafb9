import { HttpApi } from "@effect/platform"
import { Context, Option } from "effect"
import { describe, expect, it } from "vitest"
import { Api } from "../../../transports/http/Api.ts"
import { Raises } from "../../../transports/http/errors.ts"
import type { RaisedMismatch } from "../../../transports/http/operations.ts"
import { RAISED } from "../../../transports/http/raised.ts"

type With<Op extends string, Tags> = Omit<typeof RAISED, Op> & { readonly [K in Op]: Tags }

describe("each operation's refusals, derived from its handler", () => {
  it("are refused by the compiler when they are not what the handler raises", () => {
    // Each assignment compiles only while the check names exactly this mismatch (tsc runs over specs/).
    const missing: RaisedMismatch<With<"bookings.get", readonly []>> = {
      operation: "bookings.get",
      undeclared: "NotFound"
    }
    const extra: RaisedMismatch<With<"bookings.get", readonly ["NotFound", "SoldOut"]>> = {
      operation: "bookings.get",
      neverRaised: "SoldOut"
    }
    const stale: RaisedMismatch<typeof RAISED & { readonly "bookings.fly": readonly [] }> = {
      notAnOperation: "bookings.fly"
    }
    expect([missing, extra, stale].map((m) => Object.values(m)[0])).toEqual([
      "bookings.get",
      "bookings.get",
      "bookings.fly"
    ])
  })

  it("are what every endpoint of the contract declares, and every operation has its entry", () => {
    const declared: Record<string, Array<string>> = {}
    HttpApi.reflect(Api, {
      onGroup() {},
      onEndpoint({ endpoint, group }) {
        declared[`${group.identifier}.${endpoint.name}`] = Option.getOrElse(
          Context.getOption(endpoint.annotations, Raises),
          () => []
        ).map((cls) => cls._tag)
      }
    })
    expect(Object.keys(declared).sort()).toEqual(Object.keys(RAISED).sort())
    expect(declared).toEqual(RAISED)
    expect(declared["bookings.create"]).toContain("SoldOut")
  })
})
