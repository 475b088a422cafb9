import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { NewEvent } from "../schema/event.ts"
import { type CustomerRow, toCustomer } from "./customerRow.ts"

/**
 * The customers table's one writer. A guest is found or created by email in one way, whatever path meets them (a
 * booking, the waitlist, a reseller's contact, the API): the org's live customer with that email (any case), created
 * if new; an existing one only gains a missing name or phone. customer.updated is emitted when the row was created or
 * changed. The unique index customers_org_email decides between concurrent callers.
 */
export interface Guest {
  readonly email: string
  readonly name: string | null
  readonly phone?: string | null | undefined
}

/**
 * The same rule as statements the booking path runs inside its one WRITE (engine/store/bookings.ts), chosen by what
 * READ saw ($3 the id, $4-$6 the guest, $7 now, $8-$9 the name and phone READ saw): create it (if another request
 * created it first nothing is written), fill in a missing name or phone (only if both are still as READ saw them), or
 * only check that it is there. One statement per case: a statement sets up every table change it holds each time it
 * runs, whether that change writes a row or not, and the other two cases' changes cost about 3.5% of the booking's
 * work in Postgres.
 */
export type CustomerMode = "new" | "fill" | "keep"

/** The values a booking's statement meets its guest with, as its placeholders name them. */
export interface CustomerWriteValues {
  readonly org: string
  readonly id: string
  readonly email: string
  readonly name: string
  readonly phone: string
  readonly at: string
  /** The guest's name and phone as the booking's read found them: filled only if nobody changed them since. */
  readonly known_name: string
  readonly known_phone: string
}

export const CUSTOMER_WRITE: Record<CustomerMode, (v: CustomerWriteValues) => string> = {
  new: (v) => `insert into customers (id, org_id, email, name, phone, created_at)
      select ${v.id}, ${v.org}, ${v.email}, ${v.name}, ${v.phone}, ${v.at}
      on conflict do nothing returning id`,
  fill: (
    v
  ) => `update customers set name = coalesce(name, ${v.name}), phone = coalesce(phone, ${v.phone}), updated_at = ${v.at}
      where id = ${v.id} and org_id = ${v.org} and erased_at is null and name is not distinct from ${v.known_name} and phone is not distinct from ${v.known_phone}
      returning id`,
  keep: (v) => `select id from customers where id = ${v.id} and org_id = ${v.org} and erased_at is null`
}

/** The guest as a read found them (none: new), and which of CUSTOMER_WRITE's statements applies the rule. */
export const customerPlan = (found: CustomerRow | undefined, input: Guest, orgId: string, now: Date) => {
  const phone = input.phone ?? null
  if (found === undefined) {
    const row: CustomerRow = {
      id: randomUUID(),
      org_id: orgId,
      email: input.email.trim(),
      name: input.name,
      phone,
      created_at: now,
      updated_at: null,
      erased_at: null
    }
    return { mode: "new" as const, row, event: true }
  }
  const fills = (found.name === null && input.name !== null) || (found.phone === null && phone !== null)
  if (!fills) return { mode: "keep" as const, row: found, event: false }
  return {
    mode: "fill" as const,
    row: { ...found, name: found.name ?? input.name, phone: found.phone ?? phone, updated_at: now },
    event: true
  }
}

export const customerStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  /** New emails become customers; an existing one gains only a missing name or phone (else the row is not touched). */
  const upsert = (values: ReadonlyArray<Omit<CustomerRow, "updated_at" | "erased_at">>) =>
    sql`insert into customers ${sql.insert(values)}
      on conflict (org_id, lower(email)) where erased_at is null do update
      set name = coalesce(customers.name, excluded.name), phone = coalesce(customers.phone, excluded.phone), updated_at = excluded.created_at
      where (customers.name is null and excluded.name is not null) or (customers.phone is null and excluded.phone is not null)`

  /** The rule in one statement (and a read when nothing changed): the customer, and its event when it changed. */
  const findOrCreate = (orgId: string, input: Guest, at: Date) =>
    Effect.gen(function* () {
      const row = {
        id: randomUUID(),
        org_id: orgId,
        email: input.email.trim(),
        name: input.name,
        phone: input.phone ?? null,
        created_at: at
      }
      const written = yield* sql<CustomerRow>`${upsert([row])} returning *`
      if (written.length > 0) {
        const customer = toCustomer(written[0])
        return {
          id: customer.id,
          customer,
          events: [{ type: "customer.updated", data: customer }] as ReadonlyArray<NewEvent>
        }
      }
      const [found] = yield* sql<CustomerRow>`
        select * from customers where org_id = ${orgId} and lower(email) = lower(${row.email}) and erased_at is null`
      return { id: found.id, customer: toCustomer(found), events: [] as ReadonlyArray<NewEvent> }
    }).pipe(Effect.orDie)

  /** A new customer, none if the org has a live one with the email (customers.create's 409). */
  const insert = (row: Omit<CustomerRow, "updated_at" | "erased_at">) =>
    Effect.map(
      sql<CustomerRow>`insert into customers ${sql.insert(row)} on conflict do nothing returning *`,
      (rows) => rows[0] as CustomerRow | undefined
    )

  const update = (id: string, changes: Partial<Pick<CustomerRow, "email" | "name" | "phone">>, at: Date) =>
    Effect.map(
      sql<CustomerRow>`update customers set ${sql.update({ ...changes, updated_at: at })} where id = ${id} returning *`,
      (rows) => rows[0]
    )

  /**
   * The guest reported the org's mail as spam (complained, a time) or wrote in since (null): while it is set no mail
   * goes to them (the mail outbox fails it with the reason).
   */
  const complained = (id: string, at: Date | null) =>
    sql`update customers set complained_at = ${at} where id = ${id} and (complained_at is null) = (${at}::timestamptz is not null)`

  /** Personal data goes; the row stays (bookings keep pointing at it) and reads as erased. */
  const erase = (id: string, at: Date) =>
    Effect.map(
      sql<CustomerRow>`update customers set email = null, name = null, phone = null, erased_at = ${at}, updated_at = ${at}
      where id = ${id} returning *`,
      (rows) => rows[0]
    )

  /**
   * Many guests in one statement, by the same rule: the ids written (created or filled). Rows merged by email and in
   * email order (customers/importBatch.ts), so concurrent imports lock alike.
   */
  const importMany = (
    orgId: string,
    guests: ReadonlyArray<{ email: string; name: string | null; phone: string | null }>,
    at: Date
  ) =>
    Effect.gen(function* () {
      const values = guests.map((c) => ({
        id: randomUUID(),
        org_id: orgId,
        email: c.email,
        name: c.name,
        phone: c.phone,
        created_at: at
      }))
      const written = yield* sql<{ id: string }>`${upsert(values)} returning id`
      const fresh = new Set<string>(values.map((v) => v.id))
      return { created: written.filter((w) => fresh.has(w.id)).length }
    })

  return { findOrCreate, insert, update, erase, complained, importMany } as const
})
