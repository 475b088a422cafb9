import { Schema } from "effect"

/**
 * The OCTO core API's responses (octo.travel, the shapes of @octocloud/types 2.x) as effect Schemas: what this
 * supplier sends, checked against the package's types in specs/support/octo.ts. Request bodies: requests.ts.
 */

const Str = Schema.String
const NullStr = Schema.NullOr(Schema.String)

export const OctoErrorCode = Schema.Literal(
  "INVALID_PRODUCT_ID",
  "INVALID_OPTION_ID",
  "INVALID_UNIT_ID",
  "INVALID_AVAILABILITY_ID",
  "INVALID_BOOKING_UUID",
  "BAD_REQUEST",
  "UNPROCESSABLE_ENTITY",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "INTERNAL_SERVER_ERROR"
)
export type OctoErrorCode = typeof OctoErrorCode.Type

export const OctoErrorBody = Schema.Struct({
  error: OctoErrorCode,
  errorMessage: Str,
  productId: Schema.optional(Str),
  optionId: Schema.optional(Str),
  unitId: Schema.optional(Str),
  availabilityId: Schema.optional(Str),
  uuid: Schema.optional(Str)
})

export const Tax = Schema.Struct({
  name: Str,
  retail: Schema.Int,
  original: Schema.Int,
  net: Schema.NullOr(Schema.Int)
})
export const Pricing = Schema.Struct({
  original: Schema.Int,
  retail: Schema.Int,
  net: Schema.NullOr(Schema.Int),
  currency: Str,
  currencyPrecision: Schema.Int,
  includedTaxes: Schema.Array(Tax)
})
export type Pricing = typeof Pricing.Type
export const PricingUnit = Schema.Struct({ ...Pricing.fields, unitId: Str })

export const SupplierContact = Schema.Struct({ website: NullStr, email: NullStr, telephone: NullStr, address: NullStr })
export const Supplier = Schema.Struct({ id: Str, name: Str, endpoint: Str, contact: SupplierContact })

export const ContactField = Schema.Literal(
  "firstName",
  "lastName",
  "emailAddress",
  "phoneNumber",
  "country",
  "notes",
  "locales",
  "allowMarketing",
  "postalCode"
)
export const UnitType = Schema.Literal(
  "ADULT",
  "YOUTH",
  "CHILD",
  "INFANT",
  "FAMILY",
  "SENIOR",
  "STUDENT",
  "MILITARY",
  "OTHER"
)
export const UnitRestrictions = Schema.Struct({
  minAge: Schema.Int,
  maxAge: Schema.Int,
  idRequired: Schema.Boolean,
  minQuantity: Schema.NullOr(Schema.Int),
  maxQuantity: Schema.NullOr(Schema.Int),
  paxCount: Schema.Int,
  accompaniedBy: Schema.Array(Str)
})
export const Unit = Schema.Struct({
  id: Str,
  internalName: Str,
  reference: NullStr,
  type: UnitType,
  restrictions: UnitRestrictions,
  requiredContactFields: Schema.Array(ContactField),
  pricingFrom: Schema.optional(Schema.Array(Pricing))
})
export type Unit = typeof Unit.Type

export const DurationUnit = Schema.Literal("minute", "hour", "day")
export const Option = Schema.Struct({
  id: Str,
  default: Schema.Boolean,
  internalName: Str,
  reference: NullStr,
  availabilityLocalStartTimes: Schema.Array(Str),
  cancellationCutoff: Str,
  cancellationCutoffAmount: Schema.Int,
  cancellationCutoffUnit: DurationUnit,
  requiredContactFields: Schema.Array(ContactField),
  restrictions: Schema.Struct({ minUnits: Schema.NullOr(Schema.Int), maxUnits: Schema.NullOr(Schema.Int) }),
  units: Schema.Array(Unit),
  pricingFrom: Schema.optional(Schema.Array(Pricing))
})

export const AvailabilityType = Schema.Literal("START_TIME", "OPENING_HOURS")
export const DeliveryFormat = Schema.Literal("PDF_URL", "QRCODE", "CODE128", "PKPASS_URL", "AZTECCODE")
export const DeliveryMethod = Schema.Literal("VOUCHER", "TICKET")
export const RedemptionMethod = Schema.Literal("DIGITAL", "PRINT", "MANIFEST")
export const Product = Schema.Struct({
  id: Str,
  internalName: Str,
  reference: NullStr,
  locale: Str,
  timeZone: Str,
  allowFreesale: Schema.Boolean,
  instantConfirmation: Schema.Boolean,
  instantDelivery: Schema.Boolean,
  availabilityRequired: Schema.Boolean,
  availabilityType: AvailabilityType,
  deliveryFormats: Schema.Array(DeliveryFormat),
  deliveryMethods: Schema.Array(DeliveryMethod),
  redemptionMethod: RedemptionMethod,
  options: Schema.Array(Option),
  defaultCurrency: Schema.optional(Str),
  availableCurrencies: Schema.optional(Schema.Array(Str)),
  pricingPer: Schema.optional(Schema.Literal("BOOKING", "UNIT"))
})
export type Product = typeof Product.Type

export const AvailabilityStatus = Schema.Literal("AVAILABLE", "FREESALE", "SOLD_OUT", "LIMITED", "CLOSED")
export type AvailabilityStatus = typeof AvailabilityStatus.Type
export const OpeningHours = Schema.Struct({ from: Str, to: Str })
export const Availability = Schema.Struct({
  id: Str,
  localDateTimeStart: Str,
  localDateTimeEnd: Str,
  utcCutoffAt: Str,
  allDay: Schema.Boolean,
  available: Schema.Boolean,
  status: AvailabilityStatus,
  vacancies: Schema.NullOr(Schema.Int),
  capacity: Schema.NullOr(Schema.Int),
  maxUnits: Schema.NullOr(Schema.Int),
  openingHours: Schema.Array(OpeningHours),
  unitPricing: Schema.optional(Schema.Array(PricingUnit)),
  pricing: Schema.optional(Pricing)
})
export type Availability = typeof Availability.Type

export const AvailabilityCalendarDay = Schema.Struct({
  localDate: Str,
  available: Schema.Boolean,
  status: AvailabilityStatus,
  vacancies: Schema.NullOr(Schema.Int),
  capacity: Schema.NullOr(Schema.Int),
  openingHours: Schema.Array(OpeningHours),
  unitPricingFrom: Schema.optional(Schema.Array(PricingUnit)),
  pricingFrom: Schema.optional(Pricing)
})

export const BookingStatus = Schema.Literal(
  "ON_HOLD",
  "CONFIRMED",
  "EXPIRED",
  "CANCELLED",
  "REDEEMED",
  "PENDING",
  "REJECTED"
)
export type BookingStatus = typeof BookingStatus.Type
export const Contact = Schema.Struct({
  fullName: NullStr,
  firstName: NullStr,
  lastName: NullStr,
  emailAddress: NullStr,
  phoneNumber: NullStr,
  locales: Schema.Array(Str),
  postalCode: NullStr,
  country: NullStr,
  notes: NullStr
})
export type Contact = typeof Contact.Type
export const Ticket = Schema.Struct({
  redemptionMethod: RedemptionMethod,
  utcRedeemedAt: NullStr,
  deliveryOptions: Schema.Array(Schema.Struct({ deliveryFormat: DeliveryFormat, deliveryValue: Str }))
})
export const UnitItem = Schema.Struct({
  uuid: Str,
  resellerReference: NullStr,
  supplierReference: NullStr,
  unitId: Str,
  status: BookingStatus,
  utcRedeemedAt: NullStr,
  contact: Contact,
  ticket: Schema.NullOr(Ticket),
  pricing: Schema.optional(Pricing)
})
export const Booking = Schema.Struct({
  id: Str,
  uuid: Str,
  testMode: Schema.Boolean,
  resellerReference: NullStr,
  supplierReference: NullStr,
  status: BookingStatus,
  utcCreatedAt: Str,
  utcUpdatedAt: Str,
  utcExpiresAt: NullStr,
  utcRedeemedAt: NullStr,
  utcConfirmedAt: NullStr,
  productId: Str,
  product: Schema.optional(Product),
  optionId: Str,
  option: Schema.optional(Option),
  cancellable: Schema.Boolean,
  cancellation: Schema.NullOr(
    Schema.Struct({
      refund: Schema.Literal("FULL", "PARTIAL", "NONE"),
      reason: NullStr,
      utcCancelledAt: Str
    })
  ),
  freesale: Schema.Boolean,
  availabilityId: NullStr,
  availability: Schema.NullOr(Availability),
  contact: Contact,
  notes: NullStr,
  deliveryMethods: Schema.Array(DeliveryMethod),
  voucher: Schema.NullOr(Ticket),
  unitItems: Schema.Array(UnitItem),
  pricing: Schema.optional(Pricing)
})
export type Booking = typeof Booking.Type
