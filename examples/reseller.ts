// A reseller's side of the OCTO API: products, availability, reserve, confirm, with a reseller key (rk_live_…).
// Run: npx tsx examples/reseller.ts http://127.0.0.1:3000 rk_live_…
import { randomUUID } from "node:crypto"

/** Reserves the first available time of the first product for two adults and confirms it; returns the booking. */
export const reserveAndConfirm = async (
  base: string,
  key: string,
  contact: { fullName: string; emailAddress: string }
) => {
  const octo = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api/octo${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "octo-capabilities": "octo/pricing"
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const json = await res.json()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json as T
  }
  const products = await octo<Array<{ id: string; internalName: string }>>("GET", "/products")
  const today = new Date().toISOString().slice(0, 10)
  const later = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10)
  for (const p of products) {
    const times = await octo<Array<{ id: string; available: boolean }>>("POST", "/availability", {
      productId: p.id,
      optionId: "DEFAULT",
      localDateStart: today,
      localDateEnd: later
    })
    const open = times.find((t) => t.available)
    if (!open) continue
    const uuid = randomUUID()
    await octo("POST", "/bookings", {
      uuid,
      productId: p.id,
      optionId: "DEFAULT",
      availabilityId: open.id,
      unitItems: [{ unitId: "adult" }, { unitId: "adult" }]
    })
    return octo<{ uuid: string; status: string; supplierReference: string }>("POST", `/bookings/${uuid}/confirm`, {
      contact
    })
  }
  throw new Error("no product has an available time in the next two weeks")
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = "http://127.0.0.1:3000", key = ""] = process.argv.slice(2)
  reserveAndConfirm(base, key, { fullName: "Ann Lee", emailAddress: "ann@example.com" }).then(
    (b) => console.log(`Booked ${b.supplierReference}: ${b.status}`),
    (e) => (console.error(String(e)), process.exit(1))
  )
}
