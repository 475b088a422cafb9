import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { CustomerExists, InvalidAfter, InvalidCsv, notFound, TooManyRows } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { CustomerCreate, CustomersQuery, CustomerUpdate } from "../../schema/customer.ts"
import { type CustomerRow, containsPattern, isEmailTaken, phoneDigits, toCustomer } from "../../store/customerRow.ts"
import { customerStore, type Guest } from "../../store/customers.ts"
import { forgetGuest } from "../../store/messages.ts"
import { textStore } from "../../store/texts.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { Mail } from "../mail/Mail.ts"
import { importRows } from "./csv.ts"
import { BATCH_SIZE, importBatch, MAX_ROWS } from "./importBatch.ts"

const emailTaken = () => new CustomerExists({ message: "another customer of this org has that email" })

export class Customers extends Effect.Service<Customers>()("Customers", {
  dependencies: [Events.Default, Mail.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const mail = yield* Mail
    const texts = yield* textStore
    const store = yield* customerStore

    const updated = (orgId: string, row: CustomerRow) =>
      Effect.as(events.append(orgId, [{ type: "customer.updated", data: toCustomer(row) }]), toCustomer(row))

    /** A customer of the current org (404 for another org's or an unknown id); live = not erased. */
    const load = (id: string, options: { lock: boolean; live: boolean }) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const rows = yield* sql<CustomerRow>`
          select * from customers where id = ${id}::uuid and org_id = ${org.id}
          ${options.live ? sql`and erased_at is null` : sql``} ${options.lock ? sql`for update` : sql``}`.pipe(
          Effect.orDie
        )
        return yield* Option.match(Option.fromNullable(rows[0]), {
          onNone: () => Effect.fail(notFound("customer")),
          onSome: Effect.succeed
        })
      })

    const list = fn("Customers.list")(function* (query: CustomersQuery) {
      const org = yield* CurrentOrg
      const limit = query.limit ?? 50
      const q = query.q?.trim() ?? ""
      const digits = phoneDigits(q)
      if (query.after !== undefined) {
        const cursor = yield* sql`select 1 from customers where id = ${query.after} and org_id = ${org.id}`.pipe(
          Effect.orDie
        )
        if (cursor.length === 0)
          return yield* new InvalidAfter({ message: "after: no customer of this org has that id" })
      }
      // `created_at < 'infinity'` (true of every row) is what lets this read the listing index (migration 0095).
      const rows = yield* sql<CustomerRow>`
        select * from customers where org_id = ${org.id} and erased_at is null and created_at < 'infinity'
        ${
          q === ""
            ? sql``
            : sql`and (name ilike ${containsPattern(q)} or email ilike ${containsPattern(q)} or phone ilike ${containsPattern(q)}
          ${digits === "" ? sql`` : sql`or regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') like ${containsPattern(digits)}`})`
        }
        ${query.after === undefined ? sql`` : sql`and (created_at, id) > (select created_at, id from customers where id = ${query.after})`}
        order by created_at, id limit ${limit + 1}`.pipe(Effect.orDie)
      const page = rows.slice(0, limit)
      return { data: page.map(toCustomer), next_after: rows.length > limit ? page[page.length - 1].id : null }
    })

    const get = fn("Customers.get")(function* (id: string) {
      return toCustomer(yield* load(id, { lock: false, live: false }))
    })

    const create = fn("Customers.create")(function* (input: CustomerCreate) {
      const org = yield* CurrentOrg
      const row = {
        id: randomUUID(),
        org_id: org.id,
        email: input.email,
        name: input.name ?? null,
        phone: input.phone ?? null,
        created_at: yield* clock.now
      }
      return yield* Effect.gen(function* () {
        const made = yield* store.insert(row)
        if (made === undefined) return yield* emailTaken()
        return yield* updated(org.id, made)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const update = fn("Customers.update")(function* (id: string, patch: CustomerUpdate) {
      const org = yield* CurrentOrg
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
      return yield* Effect.gen(function* () {
        const current = yield* load(id, { lock: true, live: true })
        return yield* updated(org.id, yield* store.update(current.id, changes, yield* clock.now))
      }).pipe(
        transaction(sql),
        Effect.catchTag("SqlError", (e) => (isEmailTaken(e) ? Effect.fail(emailTaken()) : Effect.die(e)))
      )
    })

    /** Personal data goes; the row stays (bookings keep pointing at it) and reads as erased. */
    const erase = fn("Customers.erase")(function* (id: string) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const current = yield* load(id, { lock: true, live: true })
        const at = yield* clock.now
        const erased = yield* store.erase(current.id, at)
        if (current.email !== null) yield* mail.forget(org.id, current.email)
        if (current.phone !== null) yield* texts.forget(org.id, current.phone)
        // What was written with the guest goes too: the messages keep their place in the thread, without their words,
        // and replies drafted for them are dropped.
        yield* forgetGuest(sql, org.id, current.id)
        yield* events.append(org.id, [{ type: "customer.deleted", data: { id: current.id } }])
        return toCustomer(erased)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** Up to 10,000 rows, 500 per transaction, one customers.imported event per batch (counts only). */
    const importCsv = fn("Customers.import")(function* (csv: string) {
      const org = yield* CurrentOrg
      const parsed = importRows(csv)
      if ("error" in parsed) return yield* new InvalidCsv({ message: parsed.error })
      if (parsed.rows.length > MAX_ROWS) {
        return yield* new TooManyRows({ message: `${parsed.rows.length} rows; at most ${MAX_ROWS} per import` })
      }
      const total = { created: 0, updated: 0, skipped: 0, batches: 0 }
      for (let start = 0; start < parsed.rows.length; start += BATCH_SIZE) {
        const batch = parsed.rows.slice(start, start + BATCH_SIZE)
        const counts = yield* Effect.gen(function* () {
          const counts = yield* importBatch(store, org.id, batch, yield* clock.now)
          yield* events.append(org.id, [{ type: "customers.imported", data: counts }])
          return counts
        }).pipe(transaction(sql), Effect.orDie)
        total.created += counts.created
        total.updated += counts.updated
        total.skipped += counts.skipped
        total.batches += 1
      }
      return total
    })

    /**
     * findOrCreate without the append, for the bookings service inside its transaction: the customer and the
     * customer.updated event (none when nothing changed) for the caller to append with its own events, last.
     * Takes no org-wide lock, so it may run anywhere before the caller's append.
     */
    const upsert = fn("Customers.upsert")(function* (orgId: string, input: Guest) {
      const { customer, events: emitted } = yield* store.findOrCreate(orgId, input, yield* clock.now)
      return { customer, events: emitted }
    })

    /**
     * The org's live customer with this email, created if new; an existing one gains only a missing name or
     * phone. customer.updated is emitted only when the row was created or changed. Safe under concurrent calls
     * (the unique index decides). It may append an event (the org's event lock), so call it after the caller's
     * own row locks.
     */
    const findOrCreate = fn("Customers.findOrCreate")(function* (orgId: string, input: Guest) {
      return yield* Effect.gen(function* () {
        const { customer, events: emitted } = yield* upsert(orgId, input)
        yield* events.append(orgId, emitted)
        return customer
      }).pipe(transaction(sql), Effect.orDie)
    })

    return { list, get, create, update, erase, importCsv, findOrCreate, upsert } as const
  })
}) {}
