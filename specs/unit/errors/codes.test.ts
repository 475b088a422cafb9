import { describe, expect, it } from "vitest"
import { snakeCase } from "../../../engine/errors/define.ts"
import { domainErrors } from "../../../engine/errors/index.ts"
import { adminDocument, openApiDocument } from "../../../transports/http/openapi.ts"
import { domainStatus } from "../../../transports/shared/status.ts"
import added from "./codes-added.json" with { type: "json" }
import main from "./codes-main.json" with { type: "json" }

type Codes = Record<string, Record<string, Array<string>>>

/** Each operation's documented codes by status, as the served document and the admin document list them. */
const served = (): Codes => {
  const out: Codes = {}
  for (const doc of [openApiDocument("http://localhost"), adminDocument()])
    for (const item of Object.values<Record<string, { operationId: string; "x-error-codes": Codes[string] }>>(
      doc.paths
    ))
      for (const op of Object.values(item)) out[op.operationId] = op["x-error-codes"]
  return out
}

describe("documented error codes", () => {
  it("are, per operation, the codes documented by hand before they were derived, plus those deriving revealed", () => {
    const expected: Codes = structuredClone(main)
    for (const [op, byStatus] of Object.entries(added as Codes))
      for (const [status, codes] of Object.entries(byStatus))
        (expected[op] ??= {})[status] = [...(expected[op][status] ?? []), ...codes].sort()
    expect(served()).toEqual(expected)
  })

  it("every domain error class has a status, its tag as its name, a snake_case code, and is documented somewhere", () => {
    const documented = new Set<string>()
    for (const byStatus of Object.values(served()))
      for (const [status, codes] of Object.entries(byStatus)) for (const c of codes) documented.add(`${status} ${c}`)
    const undocumented: Array<string> = []
    for (const [name, cls] of Object.entries(domainErrors)) {
      expect(cls._tag).toBe(name)
      expect([200, 400, 401, 402, 403, 404, 409, 422, 429]).toContain(domainStatus[cls._tag])
      if (cls.code !== snakeCase(cls._tag)) expect(name).toBe("RecipientErased")
      expect((new cls({ message: "m" }) as unknown as { code: string }).code).toBe(cls.code)
      if (!documented.has(`${domainStatus[cls._tag]} ${cls.code}`)) undocumented.push(name)
    }
    // Sign-in (/auth/v1, docs/auth.md) and the session's CSRF check are the console's doors, not operations: their
    // refusals are not an operation's. (The photo's, once outside the contract, are offerings.set_photo's.)
    expect(undocumented.sort()).toEqual(["CsrfFailed", "PasskeyRefused"])
    expect(Object.keys(domainStatus).sort()).toEqual(Object.keys(domainErrors).sort())
  })
})
