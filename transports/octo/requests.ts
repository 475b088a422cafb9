import { Schema } from "effect"

// The OCTO core API's request bodies and query, decoded by routes.ts. Unknown fields are ignored (OCTO clients send
// capability fields this supplier does not know).

const Str = Schema.String
const LocalDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.annotations({ message: () => "a local date YYYY-MM-DD" })
)
const Ref = Schema.String.pipe(Schema.maxLength(200))
/**
 * A reseller's uuid, as OCTO has it (`z.string().uuid()` in @octocloud/types): 8-4-4-4-12 hex digits, any version.
 * It is the reservation's idempotency key, kept exactly as sent.
 */
export const OctoUuid = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: () => "must be a UUID (8-4-4-4-12 hex digits), as OCTO requires"
  })
)
export const AvailabilityUnit = Schema.Struct({ id: Str, quantity: Schema.Int.pipe(Schema.between(0, 10000)) })

export const CalendarBody = Schema.Struct({
  productId: Str,
  optionId: Str,
  localDateStart: LocalDate,
  localDateEnd: LocalDate,
  units: Schema.optional(Schema.Array(AvailabilityUnit))
})
export type CalendarBody = typeof CalendarBody.Type

export const AvailabilityBody = Schema.Struct({
  productId: Str,
  optionId: Str,
  localDateStart: Schema.optional(LocalDate),
  localDateEnd: Schema.optional(LocalDate),
  availabilityIds: Schema.optional(Schema.Array(Str).pipe(Schema.maxItems(100))),
  units: Schema.optional(Schema.Array(AvailabilityUnit))
})
export type AvailabilityBody = typeof AvailabilityBody.Type

const Email = Schema.String.pipe(
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/),
  Schema.annotations({ message: () => "emailAddress: an email address" })
)
export const ContactInput = Schema.Struct({
  fullName: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(120)))),
  firstName: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(60)))),
  lastName: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(60)))),
  emailAddress: Schema.optional(Schema.NullOr(Email)),
  phoneNumber: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(40)))),
  locales: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(35))).pipe(Schema.maxItems(10))),
  postalCode: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(20)))),
  country: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2)))),
  notes: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000))))
})
export type ContactInput = typeof ContactInput.Type

export const UnitItemInput = Schema.Struct({
  uuid: Schema.optional(OctoUuid),
  unitId: Str,
  resellerReference: Schema.optional(Ref),
  contact: Schema.optional(ContactInput)
})
export type UnitItemInput = typeof UnitItemInput.Type
const UnitItems = Schema.Array(UnitItemInput).pipe(Schema.minItems(1), Schema.maxItems(10000))
const Minutes = Schema.Int.pipe(
  Schema.between(1, 1440),
  Schema.annotations({ message: () => "expirationMinutes: whole minutes, 1 to 1440" })
)
const Notes = Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))

export const ReserveBody = Schema.Struct({
  uuid: Schema.optional(OctoUuid),
  productId: Str,
  optionId: Str,
  availabilityId: Str,
  expirationMinutes: Schema.optional(Minutes),
  notes: Schema.optional(Notes),
  unitItems: UnitItems,
  resellerReference: Schema.optional(Ref),
  contact: Schema.optional(ContactInput)
})
export type ReserveBody = typeof ReserveBody.Type

export const UpdateBody = Schema.Struct({
  resellerReference: Schema.optional(Ref),
  productId: Schema.optional(Str),
  optionId: Schema.optional(Str),
  availabilityId: Schema.optional(Str),
  expirationMinutes: Schema.optional(Minutes),
  notes: Schema.optional(Notes),
  emailReceipt: Schema.optional(Schema.Boolean),
  unitItems: Schema.optional(UnitItems),
  contact: Schema.optional(ContactInput)
})
export type UpdateBody = typeof UpdateBody.Type

export const ConfirmBody = Schema.Struct({
  emailReceipt: Schema.optional(Schema.Boolean),
  resellerReference: Schema.optional(Ref),
  contact: ContactInput,
  unitItems: Schema.optional(UnitItems)
})
export type ConfirmBody = typeof ConfirmBody.Type

export const ExtendBody = Schema.Struct({ expirationMinutes: Schema.optional(Minutes) })
export const CancelBody = Schema.Struct({
  reason: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(500)))),
  force: Schema.optional(Schema.Boolean)
})

export const BookingsQuery = Schema.Struct({
  resellerReference: Schema.optional(Ref),
  supplierReference: Schema.optional(Ref),
  localDateStart: Schema.optional(LocalDate),
  localDateEnd: Schema.optional(LocalDate),
  productId: Schema.optional(Str),
  optionId: Schema.optional(Str)
})
export type BookingsQuery = typeof BookingsQuery.Type
