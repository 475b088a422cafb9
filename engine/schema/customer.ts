import { Schema } from "effect"
import { charsWithin, QueryInt, strict, Text, Timestamp } from "./common.ts"
import { Phone } from "./phone.ts"

const EMAIL = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\.]+(\.[^\s@"(),:;<>[\]\\.]+)+$/

/** The one email check: the API's Schema and the CSV import both use it. */
export const isEmail = (s: string) => charsWithin(s, 0, 254) && EMAIL.test(s)

export const Email = Schema.String.pipe(
  Schema.filter(isEmail, { message: () => "must be a valid email address of at most 254 characters" })
).annotations({ description: "Email address", jsonSchema: {} })
export const Name = Text(1, 200)

export const Customer = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Schema.NullOr(Timestamp),
  erased: Schema.Boolean
}).annotations({ identifier: "Customer" })
export type Customer = typeof Customer.Type

export const CustomerCreate = Schema.Struct({
  email: Email,
  name: Schema.optional(Schema.NullOr(Name)),
  phone: Schema.optional(Schema.NullOr(Phone))
}).annotations({
  ...strict,
  identifier: "CustomerCreate",
  examples: [{ email: "ada@example.com", name: "Ada Lovelace", phone: "+44 20 7946 0000" }]
})
export type CustomerCreate = typeof CustomerCreate.Type

export const CustomerUpdate = Schema.Struct({
  email: Schema.optional(Email),
  name: Schema.optional(Schema.NullOr(Name)),
  phone: Schema.optional(Schema.NullOr(Phone))
}).annotations({ ...strict, identifier: "CustomerUpdate", examples: [{ phone: "+44 20 7946 0001" }] })
export type CustomerUpdate = typeof CustomerUpdate.Type

export const CustomersQuery = Schema.Struct({
  q: Schema.optional(Text(0, 80)),
  limit: Schema.optional(QueryInt(1, 500, "At most this many customers in the page (default 50)")),
  after: Schema.optional(Schema.UUID)
})
export type CustomersQuery = typeof CustomersQuery.Type

export const CustomerPage = Schema.Struct({ data: Schema.Array(Customer), next_after: Schema.NullOr(Schema.String) })

/** 10,000 rows of generous width; the row count itself is checked after parsing (too_many_rows). */
export const CustomerImport = Schema.Struct({
  csv: Text(1, 8_000_000)
}).annotations({
  ...strict,
  identifier: "CustomerImport",
  examples: [
    { csv: "email,name,phone\nada@example.com,Ada Lovelace,+44 20 7946 0000\ngrace@example.com,Grace Hopper,\n" }
  ]
})

export const ImportResult = Schema.Struct({
  created: Schema.Int,
  updated: Schema.Int,
  skipped: Schema.Int,
  batches: Schema.Int
})
export type ImportResult = typeof ImportResult.Type
