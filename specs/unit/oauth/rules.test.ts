import { createHash } from "node:crypto"
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseClientMetadata, redirectRefusal, verifierMatches } from "../../../engine/services/oauth/rules.ts"

describe("OAuth rules", () => {
  it("redirect URIs: https anywhere, http only on loopback, no fragment, no credentials", () => {
    for (const ok of [
      "https://claude.ai/api/mcp/auth_callback",
      "https://chatgpt.com/connector_platform_oauth_redirect",
      "http://localhost:6274/oauth/callback",
      "http://127.0.0.1:33418",
      "http://[::1]:8080/cb"
    ]) {
      expect(redirectRefusal(ok), ok).toBeUndefined()
    }
    for (const bad of [
      "http://example.com/cb",
      "https://example.com/cb#x",
      "https://user:pw@example.com/cb",
      "javascript:alert(1)",
      "cb",
      "ftp://example.com",
      "http://localhost.evil.com/cb"
    ]) {
      expect(redirectRefusal(bad), bad).toBeDefined()
    }
  })

  it("client metadata: defaults to a public client, refuses what this server does not do", () => {
    const parsed = parseClientMetadata({ redirect_uris: ["https://a.example/cb"] })
    expect(Either.getOrThrow(parsed)).toMatchObject({
      client_name: "MCP client",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"]
    })
    expect(
      Either.isLeft(parseClientMetadata({ redirect_uris: ["https://a.example/cb"], response_types: ["token"] }))
    ).toBe(true)
    expect(Either.isLeft(parseClientMetadata(null))).toBe(true)
    expect(Either.isLeft(parseClientMetadata({ redirect_uris: "https://a.example/cb" }))).toBe(true)
  })

  it("PKCE S256: the verifier matches its own challenge and no other", () => {
    const verifier = fc.stringMatching(/^[A-Za-z0-9\-._~]{43,128}$/)
    fc.assert(
      fc.property(verifier, verifier, (v, w) => {
        const challenge = createHash("sha256").update(v).digest("base64url")
        expect(verifierMatches(v, challenge)).toBe(true)
        expect(verifierMatches(w, challenge)).toBe(v === w)
      })
    )
    // RFC 7636 appendix B.
    expect(
      verifierMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    ).toBe(true)
    expect(verifierMatches("short", createHash("sha256").update("short").digest("base64url"))).toBe(false)
  })
})
