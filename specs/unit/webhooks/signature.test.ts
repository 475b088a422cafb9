import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { newSecret, sign, verifySignature } from "../../../transports/webhooks/signature.ts"

const secret = "whsec_test_secret"
const body = '{"id":7,"type":"booking.confirmed","created_at":"2025-01-01T00:00:00Z","data":{"name":"Zoë"}}'
const t = 1_700_000_000

describe("sign", () => {
  it("is t=<t>,v1=<hex HMAC-SHA256 of '<t>.<body>'>", () => {
    const hex = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")
    expect(sign(secret, body, t)).toBe(`t=${t},v1=${hex}`)
  })

  it("makes secrets with the whsec_ prefix and 32 random bytes", () => {
    const a = newSecret()
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a.slice(6), "base64url")).toHaveLength(32)
    expect(newSecret()).not.toBe(a)
  })
})

describe("verifySignature", () => {
  const header = sign(secret, body, t)

  it("accepts the exact raw body", () => {
    expect(verifySignature({ header, rawBody: body, secrets: secret, now: t })).toEqual({ ok: true })
  })

  it("refuses any change to the raw body, even whitespace or re-serialised JSON", () => {
    for (const other of [
      `${body}\n`,
      ` ${body}`,
      JSON.stringify(JSON.parse(body), null, 2),
      body.replace("Zoë", "Zoe")
    ]) {
      expect(verifySignature({ header, rawBody: other, secrets: secret, now: t })).toEqual({
        ok: false,
        reason: "mismatch"
      })
    }
  })

  it("refuses another secret and a signature over another timestamp", () => {
    expect(verifySignature({ header, rawBody: body, secrets: "whsec_other", now: t })).toEqual({
      ok: false,
      reason: "mismatch"
    })
    const v1 = header.split("v1=")[1]
    expect(verifySignature({ header: `t=${t + 1},v1=${v1}`, rawBody: body, secrets: secret, now: t })).toEqual({
      ok: false,
      reason: "mismatch"
    })
  })

  it("goes through the constant-time compare for a same-length wrong digest", () => {
    const v1 = header.split("v1=")[1]
    const flipped = (v1[0] === "0" ? "1" : "0") + v1.slice(1)
    expect(verifySignature({ header: `t=${t},v1=${flipped}`, rawBody: body, secrets: secret, now: t })).toEqual({
      ok: false,
      reason: "mismatch"
    })
    expect(
      verifySignature({ header: `t=${t},v1=${v1.toUpperCase()}`, rawBody: body, secrets: secret, now: t })
    ).toEqual({ ok: true })
  })

  it("tolerates 300 s both ways and refuses 301", () => {
    const at = (now: number) => verifySignature({ header, rawBody: body, secrets: secret, now })
    expect(at(t + 300)).toEqual({ ok: true })
    expect(at(t - 300)).toEqual({ ok: true })
    expect(at(t + 301)).toEqual({ ok: false, reason: "too_old" })
    expect(at(t - 301)).toEqual({ ok: false, reason: "too_new" })
  })

  it("takes a custom tolerance and defaults now to the clock", () => {
    expect(verifySignature({ header, rawBody: body, secrets: secret, now: t + 10, toleranceSeconds: 5 })).toEqual({
      ok: false,
      reason: "too_old"
    })
    const fresh = Math.floor(Date.now() / 1000)
    expect(verifySignature({ header: sign(secret, body, fresh), rawBody: body, secrets: secret })).toEqual({ ok: true })
    expect(verifySignature({ header, rawBody: body, secrets: secret })).toEqual({ ok: false, reason: "too_old" })
  })

  it("accepts when any of several v1 values matches (sender rolling its secret)", () => {
    const oldV1 = sign("whsec_old", body, t).split("v1=")[1]
    const newV1 = sign(secret, body, t).split("v1=")[1]
    expect(
      verifySignature({ header: `t=${t},v1=${oldV1},v1=${newV1}`, rawBody: body, secrets: secret, now: t })
    ).toEqual({ ok: true })
    expect(
      verifySignature({ header: `v1=${newV1},t=${t},v1=${oldV1}`, rawBody: body, secrets: secret, now: t })
    ).toEqual({ ok: true })
    expect(verifySignature({ header: `t=${t},v1=${oldV1}`, rawBody: body, secrets: secret, now: t })).toEqual({
      ok: false,
      reason: "mismatch"
    })
  })

  it("accepts when any of several secrets matches (receiver rolling its secret)", () => {
    expect(verifySignature({ header, rawBody: body, secrets: ["whsec_new", secret], now: t })).toEqual({ ok: true })
    expect(verifySignature({ header, rawBody: body, secrets: [secret, "whsec_new"], now: t })).toEqual({ ok: true })
    expect(verifySignature({ header, rawBody: body, secrets: ["whsec_a", "whsec_b"], now: t })).toEqual({
      ok: false,
      reason: "mismatch"
    })
    expect(verifySignature({ header, rawBody: body, secrets: [], now: t })).toEqual({ ok: false, reason: "mismatch" })
  })

  it("ignores unknown schemes next to a valid v1 and tolerates spaces", () => {
    const v1 = header.split("v1=")[1]
    expect(verifySignature({ header: `t=${t}, v0=abc, v1=${v1}`, rawBody: body, secrets: secret, now: t })).toEqual({
      ok: true
    })
  })

  it.each([
    ["missing header", undefined],
    ["null header", null],
    ["empty header", ""],
    ["no t", `v1=${"a".repeat(64)}`],
    ["no v1", `t=${t}`],
    ["t not a number", `t=abc,v1=${"a".repeat(64)}`],
    ["negative t", `t=-5,v1=${"a".repeat(64)}`],
    ["fractional t", `t=1.5,v1=${"a".repeat(64)}`],
    ["two t", `t=${t},t=${t},v1=${"a".repeat(64)}`],
    ["v1 not hex", `t=${t},v1=${"z".repeat(64)}`],
    ["v1 too short", `t=${t},v1=abcd`],
    ["v1 empty", `t=${t},v1=`],
    ["part without =", `t=${t},v1`],
    ["garbage", "hello world"]
  ])("refuses a malformed header: %s", (_name, bad) => {
    expect(verifySignature({ header: bad, rawBody: body, secrets: secret, now: t })).toEqual({
      ok: false,
      reason: "malformed"
    })
  })
})
