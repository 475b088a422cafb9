import { sql, type TestApp } from "../../support/app.ts"

export const eventsOf = (app: TestApp, orgId: string, type: string) =>
  sql(
    app,
    (s) =>
      s<{
        data: Record<string, unknown>
      }>`select data from events where org_id = ${orgId} and type = ${type} order by id`
  ).then((rows) => rows.map((r) => r.data))

export const customerRow = (app: TestApp, id: string) =>
  sql(
    app,
    (s) => s<{ email: string | null; name: string | null; phone: string | null; erased_at: Date | null }>`
    select email, name, phone, erased_at from customers where id = ${id}`
  ).then((rows) => rows[0])

export const csvOf = (header: string, rows: ReadonlyArray<string>) => `${[header, ...rows].join("\r\n")}\r\n`
