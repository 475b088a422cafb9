import * as bookings from "./bookings.ts"
import * as calendar from "./calendar.ts"
import * as common from "./common.ts"
import * as customers from "./customers.ts"
import * as money from "./money.ts"
import * as offerings from "./offerings.ts"
import * as team from "./team.ts"
import * as waitlist from "./waitlist.ts"
import * as waivers from "./waivers.ts"
import * as webhooks from "./webhooks.ts"

export * from "./bookings.ts"
export * from "./calendar.ts"
export * from "./common.ts"
export * from "./customers.ts"
export * from "./money.ts"
export * from "./offerings.ts"
export * from "./team.ts"
export * from "./waitlist.ts"
export * from "./waivers.ts"
export * from "./webhooks.ts"

const { notFound: _, ...commonClasses } = common

/** Every domain error class, by its tag (the export's name is the class's tag: specs/unit/errors checks it). */
export const domainErrors = {
  ...bookings,
  ...calendar,
  ...commonClasses,
  ...customers,
  ...money,
  ...offerings,
  ...team,
  ...waitlist,
  ...waivers,
  ...webhooks
}
export type DomainErrorTag = keyof typeof domainErrors
export type DomainErrorClass = (typeof domainErrors)[DomainErrorTag]
export type AnyDomainError = InstanceType<DomainErrorClass>

type Pascal<S extends string> = S extends `${infer H}_${infer T}` ? `${Capitalize<H>}${Pascal<T>}` : Capitalize<S>
/** The class of a code (the machines' and the database's refusals name theirs by code). */
export type ErrorOf<C extends string> = InstanceType<(typeof domainErrors)[Pascal<C> & DomainErrorTag]>

const byCode = new Map<string, DomainErrorClass>()
for (const cls of Object.values(domainErrors)) if (!byCode.has(cls.code)) byCode.set(cls.code, cls)

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())

/** A refusal named by its code (a machine's or the database's), as its class. */
export const errorOf = <C extends string>(code: C, message: string): ErrorOf<C> => {
  const cls = domainErrors[pascal(code) as DomainErrorTag]
  if (cls === undefined) throw new Error(`no domain error for the code ${code}`)
  return new cls({ message }) as ErrorOf<C>
}
