import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { csvOf, eventsOf } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const importCsv = (key: string, csv: string) => app.call(key, "POST", "/api/v1/customers/import", { csv })
const byEmail = (orgId: string, email: string) =>
  sql(
    app,
    (s) => s<{ name: string | null; phone: string | null; email: string }>`
    select name, phone, email from customers where org_id = ${orgId} and lower(email) = lower(${email}) and erased_at is null`
  )

describe("customers.import", () => {
  it("imports 1,200 rows in 3 batches, one customers.imported event each with its counts", async () => {
    const org = await app.newOrg()
    await app.call(org.key, "POST", "/api/v1/customers", { email: "keeps.name@example.com", name: "Kept Name" })
    await app.call(org.key, "POST", "/api/v1/customers", {
      email: "keeps.phone@example.com",
      phone: "+44 20 7946 0001"
    })
    const rows = Array.from(
      { length: 1200 },
      (_, i) => `guest${i}@example.com,Guest ${i},+31 6 ${String(i).padStart(8, "0")}`
    )
    rows[10] = "KEEPS.NAME@example.com,Replaced Name,+31 20 000 0000"
    rows[700] = "keeps.phone@example.com,Gained Name,+1 555 0100"
    rows[1100] = "not-an-email,Nobody,"
    rows[1101] = ",No Email,+31 6 0"
    const res = await importCsv(org.key, csvOf("email,name,phone", rows))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ created: 1196, updated: 2, skipped: 2, batches: 3 })
    expect(await eventsOf(app, org.id, "customers.imported")).toEqual([
      { created: 499, updated: 1, skipped: 0 },
      { created: 499, updated: 1, skipped: 0 },
      { created: 198, updated: 0, skipped: 2 }
    ])
    expect(await byEmail(org.id, "keeps.name@example.com")).toEqual([
      { email: "keeps.name@example.com", name: "Kept Name", phone: "+31200000000" }
    ])
    expect(await byEmail(org.id, "keeps.phone@example.com")).toEqual([
      { email: "keeps.phone@example.com", name: "Gained Name", phone: "+442079460001" }
    ])
    expect(await byEmail(org.id, "guest1199@example.com")).toEqual([
      { email: "guest1199@example.com", name: "Guest 1199", phone: "+31600001199" }
    ])
    const [{ n }] = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from customers where org_id = ${org.id}`
    )
    expect(n).toBe(1198)
    const [{ e }] = await sql(
      app,
      (s) => s<{ e: number }>`select count(*)::int as e from events where org_id = ${org.id} and type like 'customer%'`
    )
    expect(e).toBe(2 + 3)
  })

  it("reads columns in any order and case, ignores other columns, and parses quoted fields (RFC 4180)", async () => {
    const org = await app.newOrg()
    const csv =
      "\uFEFFPhone,Notes,EMAIL,Name\r\n" +
      '"+31 6 1111 2222","likes, commas",jane@example.com,"Doe, Jane"\r\n' +
      ',"line one\nline two",quote@example.com,"She said ""hi"""\r\n' +
      "\r\n" +
      ",,plain@example.com,Plain"
    const res = await importCsv(org.key, csv)
    expect(res.body).toEqual({ created: 3, updated: 0, skipped: 0, batches: 1 })
    expect(await byEmail(org.id, "jane@example.com")).toEqual([
      { email: "jane@example.com", name: "Doe, Jane", phone: "+31611112222" }
    ])
    expect(await byEmail(org.id, "quote@example.com")).toEqual([
      { email: "quote@example.com", name: 'She said "hi"', phone: null }
    ])
    expect(await byEmail(org.id, "plain@example.com")).toEqual([
      { email: "plain@example.com", name: "Plain", phone: null }
    ])
  })

  it("counts a repeated email once as created and then as updated, and keeps the first name", async () => {
    const org = await app.newOrg()
    const res = await importCsv(
      org.key,
      csvOf("email,name,phone", ["twice@example.com,First,", "TWICE@example.com,Second,+31 6 1234 5679"])
    )
    expect(res.body).toEqual({ created: 1, updated: 1, skipped: 0, batches: 1 })
    expect(await byEmail(org.id, "twice@example.com")).toEqual([
      { email: "twice@example.com", name: "First", phone: "+31612345679" }
    ])
  })

  it("touches only the calling org's customers", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    await app.call(a.key, "POST", "/api/v1/customers", { email: "shared@example.com" })
    expect((await importCsv(b.key, csvOf("email,name", ["shared@example.com,From B"]))).body).toMatchObject({
      created: 1,
      updated: 0
    })
    expect(await byEmail(a.id, "shared@example.com")).toEqual([
      { email: "shared@example.com", name: null, phone: null }
    ])
  })

  it("takes 10,000 rows and refuses 10,001 with 400 too_many_rows, writing nothing", async () => {
    const org = await app.newOrg()
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `bulk${i}@example.com`)
    const tooMany = await importCsv(org.key, csvOf("email", rows(10_001)))
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.code).toBe("too_many_rows")
    const [{ n }] = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from customers where org_id = ${org.id}`
    )
    expect(n).toBe(0)
    const max = await importCsv(org.key, csvOf("email", rows(10_000)))
    expect(max.body).toEqual({ created: 10_000, updated: 0, skipped: 0, batches: 20 })
  })

  it("answers a header-only CSV with zero batches", async () => {
    const org = await app.newOrg()
    expect((await importCsv(org.key, "email,name\n")).body).toEqual({ created: 0, updated: 0, skipped: 0, batches: 0 })
    expect(await eventsOf(app, org.id, "customers.imported")).toEqual([])
  })

  it.each([
    [{ csv: "name,phone\nJane,1" }, "invalid_csv"],
    [{ csv: 'email\n"unclosed@example.com' }, "invalid_csv"],
    [{ csv: 'email\nab"c@example.com' }, "invalid_csv"],
    [{ csv: "" }, "invalid_csv"],
    [{}, "invalid_csv"],
    [{ csv: 5 }, "invalid_csv"],
    [{ csv: "email\n", dry_run: true }, "unknown_field"]
  ])("refuses %j with 400 %s", async (body, code) => {
    const org = await app.newOrg()
    const res = await app.call(org.key, "POST", "/api/v1/customers/import", body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })
})
