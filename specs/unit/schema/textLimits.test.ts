import { JSONSchema, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BookingCreate, BookingsQuery, CancelBody } from "../../../engine/schema/booking.ts"
import { SessionCancel } from "../../../engine/schema/calendar.ts"
import { charCount, Text, truncateChars } from "../../../engine/schema/common.ts"
import { CustomerCreate, CustomerImport, CustomersQuery, CustomerUpdate } from "../../../engine/schema/customer.ts"
import { OfferingCreate, OfferingUpdate } from "../../../engine/schema/offering.ts"
import { MemberCreate, OrgCreate, OrgUpdate, WaiverSet } from "../../../engine/schema/org.ts"
import { cleanRows } from "../../../engine/services/customers/importBatch.ts"

// The spec's limits are in "chars": Unicode code points. An emoji is one char and two UTF-16 code units.
const EMOJI = "😀"
const emoji = (n: number) => EMOJI.repeat(n)
const UUID = "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11"

type Case = {
  readonly name: string
  readonly schema: Schema.Schema<any, any>
  readonly body: (s: string) => unknown
  readonly min: number
  readonly max: number
}
const customer = { email: "guest@example.com", name: "Guest" }
const question = (label: string, options?: Array<string>) => ({
  label,
  type: options ? "choice" : "text",
  ...(options ? { options } : {})
})

const CASES: ReadonlyArray<Case> = [
  { name: "offering name", schema: OfferingCreate, body: (s) => ({ kind: "class", name: s }), min: 1, max: 120 },
  { name: "offering description", schema: OfferingUpdate, body: (s) => ({ description: s }), min: 0, max: 2000 },
  { name: "offering location", schema: OfferingUpdate, body: (s) => ({ location: s }), min: 0, max: 500 },
  { name: "offering place_id", schema: OfferingUpdate, body: (s) => ({ place_id: s }), min: 1, max: 300 },
  { name: "question label", schema: OfferingUpdate, body: (s) => ({ questions: [question(s)] }), min: 1, max: 80 },
  {
    name: "question option",
    schema: OfferingUpdate,
    body: (s) => ({ questions: [question("Pick", [s, "other"])] }),
    min: 1,
    max: 40
  },
  {
    name: "booking customer name",
    schema: BookingCreate,
    body: (s) => ({ offering_id: UUID, customer: { ...customer, name: s } }),
    min: 1,
    max: 120
  },
  {
    name: "booking notes",
    schema: BookingCreate,
    body: (s) => ({ offering_id: UUID, customer, notes: s }),
    min: 0,
    max: 2000
  },
  { name: "bookings.list reference", schema: BookingsQuery, body: (s) => ({ reference: s }), min: 0, max: 40 },
  { name: "bookings.list q", schema: BookingsQuery, body: (s) => ({ q: s }), min: 0, max: 80 },
  { name: "cancel reason", schema: CancelBody, body: (s) => ({ reason: s }), min: 0, max: 500 },
  { name: "session cancel note", schema: SessionCancel, body: (s) => ({ note: s }), min: 0, max: 200 },
  {
    name: "customer name (create)",
    schema: CustomerCreate,
    body: (s) => ({ email: "a@example.com", name: s }),
    min: 1,
    max: 200
  },
  { name: "customer name (update)", schema: CustomerUpdate, body: (s) => ({ name: s }), min: 1, max: 200 },
  { name: "customers.list q", schema: CustomersQuery, body: (s) => ({ q: s }), min: 0, max: 80 },
  {
    name: "org name",
    schema: OrgCreate,
    body: (s) => ({ name: s, timezone: "Europe/Amsterdam", currency: "EUR" }),
    min: 1,
    max: 120
  },
  { name: "org name (update)", schema: OrgUpdate, body: (s) => ({ name: s }), min: 1, max: 120 },
  {
    name: "member name",
    schema: MemberCreate,
    body: (s) => ({ email: "m@example.com", role: "staff", name: s }),
    min: 1,
    max: 120
  },
  { name: "waiver text", schema: WaiverSet, body: (s) => ({ text: s }), min: 1, max: 20000 }
]

const accepts = (c: Case, s: string) => Schema.decodeUnknownEither(c.schema)(c.body(s))._tag === "Right"

describe("text limits count characters (code points), not UTF-16 code units", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s: the limit in emoji is accepted, one more is refused", (_, c) => {
    expect(accepts(c, emoji(c.max))).toBe(true)
    expect(accepts(c, emoji(c.max + 1))).toBe(false)
    expect(accepts(c, "a".repeat(c.max))).toBe(true)
    expect(accepts(c, "a".repeat(c.max + 1))).toBe(false)
    if (c.min > 0) expect(accepts(c, "")).toBe(false)
    if (c.min === 1) expect(accepts(c, EMOJI)).toBe(true)
  })

  it("the customer's email counts 254 characters", () => {
    const email = (local: number) => `${"é".repeat(local)}@${"ü".repeat(60)}.example`
    expect(charCount(email(185))).toBe(254)
    const decode = (e: string) => Schema.decodeUnknownEither(CustomerCreate)({ email: e })._tag
    expect(decode(email(185))).toBe("Right")
    expect(decode(email(186))).toBe("Left")
    expect(decode(`${emoji(185)}@${"ü".repeat(60)}.example`)).toBe("Right")
  })

  it("a customer import counts its csv in characters too", () => {
    const decode = (csv: string) => Schema.decodeUnknownEither(CustomerImport)({ csv })._tag
    expect(decode(emoji(8_000_000))).toBe("Right")
    expect(decode(emoji(8_000_001))).toBe("Left")
  })

  it("Text agrees with a code point count for any string (surrogate pairs, lone surrogates, combining marks)", () => {
    const units = fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: "binary" }),
      fc.string({ unit: fc.constantFrom("a", EMOJI, "\ud800", "\udc00", "é", "e\u0301") })
    )
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (s, a, b) => {
        const [min, max] = [Math.min(a, b), Math.max(a, b)]
        const points = [...s].length
        expect(charCount(s)).toBe(points)
        expect(Schema.decodeUnknownEither(Text(min, max))(s)._tag).toBe(
          points >= min && points <= max ? "Right" : "Left"
        )
      }),
      { numRuns: 400 }
    )
  })
})

describe("the JSON Schema of each limit (OpenAPI, MCP tools) states the same bounds", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const json = JSON.stringify(JSONSchema.make(c.schema))
    expect(json).toContain(`"maxLength":${c.max}`)
    if (c.min > 0) expect(json).toContain(`"minLength":${c.min}`)
    expect(json).not.toMatch(/"description":"a string at most/)
  })
})

describe("truncating to a number of characters", () => {
  it("keeps the first n code points, never half a pair", () => {
    const units = fc.string({ unit: fc.constantFrom("a", EMOJI, "\ud800", "é") })
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 20 }), (s, n) => {
        expect(truncateChars(s, n)).toBe([...s].slice(0, n).join(""))
      }),
      { numRuns: 1000 }
    )
  })

  it("a customer import keeps a name's first 200 characters, emoji included", () => {
    const { customers } = cleanRows([
      { email: "a@example.com", name: emoji(250), phone: "" },
      { email: "b@example.com", name: `${"x".repeat(199)}${emoji(5)}`, phone: "" }
    ])
    expect(customers.map((c) => c.name)).toEqual([emoji(200), `${"x".repeat(199)}${EMOJI}`])
  })
})
