import type * as T from "@octocloud/types"
import { Schema } from "effect"
import { expect } from "vitest"
import * as O from "../../transports/octo/schema.ts"
import type { Reply, TestApp } from "./app.ts"

/**
 * The engine's OCTO Schemas, held to the shapes of @octocloud/types at compile time: each Schema's type must be
 * assignable to the package's (its string enums read as their values), so a response that decodes is one of theirs.
 */
type Plain<A> = A extends string
  ? `${A}`
  : A extends number | boolean | null | undefined
    ? A
    : A extends ReadonlyArray<infer U>
      ? ReadonlyArray<Plain<U>>
      : { [K in keyof A]: Plain<A[K]> }
const conforms =
  <Theirs>() =>
  <Ours extends Plain<Theirs>>(schema: Schema.Schema<Ours, any, never>) =>
    schema
export const OctoSchemas = {
  Supplier: conforms<T.Supplier>()(O.Supplier),
  Product: conforms<T.Product>()(O.Product),
  Products: Schema.Array(conforms<T.Product>()(O.Product)),
  Availability: Schema.Array(conforms<T.Availability>()(O.Availability)),
  Calendar: Schema.Array(conforms<T.AvailabilityCalendar>()(O.AvailabilityCalendarDay)),
  Booking: conforms<T.Booking>()(O.Booking),
  Bookings: Schema.Array(conforms<T.Booking>()(O.Booking)),
  Error: conforms<T.BaseError>()(O.OctoErrorBody)
} as const

/** Decodes a body with a Schema, refusing fields the Schema does not know (a response exactly of OCTO's shape). */
export const expectOcto = <A>(schema: Schema.Schema<A, any, never>, body: unknown): A =>
  Schema.decodeUnknownSync(schema, { onExcessProperty: "error", errors: "all" })(body)

export const octoClient =
  (app: TestApp, key: string, capabilities?: string) => (method: string, path: string, body?: unknown) =>
    app.call(
      key,
      method,
      `/api/octo${path}`,
      body,
      capabilities === undefined ? {} : { "octo-capabilities": capabilities }
    )

/** A 2xx OCTO answer decoded with its Schema. */
export const octoOk = <A>(schema: Schema.Schema<A, any, never>, res: Reply): A => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${JSON.stringify(res.body)}`)
  return expectOcto(schema, res.body)
}

/** An OCTO error: the status, OCTO's code, a message, and the shape of its error schemas. */
export const expectOctoError = (res: Reply, status: number, code: O.OctoErrorCode) => {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error: code })
  expect(expectOcto(OctoSchemas.Error, res.body).errorMessage.length).toBeGreaterThan(0)
  return res.body as typeof O.OctoErrorBody.Type
}
