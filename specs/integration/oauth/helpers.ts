import { createHash, randomBytes } from "node:crypto"
import { createServer } from "node:net"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { expect } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

export type { TestApp }

/** A free loopback port, so PUBLIC_URL can name the app's real address (connectors check the resource's URL). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const address = s.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      s.close(() => resolve(port))
    })
  })

/** The app with PUBLIC_URL set to where it listens: the issuer and resource a connector discovers are reachable. */
export const startOAuthApp = async (): Promise<TestApp> => {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort()
    try {
      return await startApp({ port, publicUrl: `http://127.0.0.1:${port}` })
    } catch (e) {
      if (attempt >= 3) throw e
    }
  }
}

export const REDIRECT = "http://127.0.0.1:9/callback"

export const form = (app: TestApp, path: string, fields: Record<string, string>) =>
  fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual"
  })

export const register = async (app: TestApp, metadata: Record<string, unknown> = {}) => {
  const res = await fetch(`${app.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Raw connector",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      ...metadata
    })
  })
  expect(res.status).toBe(201)
  return (await res.json()) as { client_id: string; client_secret?: string }
}

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

/** The consent form submitted with a key; the 303's Location parsed (or the page when there is none). */
export const consent = async (app: TestApp, fields: Record<string, string>) => {
  const res = await form(app, "/oauth/authorize", {
    response_type: "code",
    redirect_uri: REDIRECT,
    code_challenge_method: "S256",
    state: "st-1",
    decision: "approve",
    ...fields
  })
  const location = res.headers.get("location")
  return { status: res.status, location: location === null ? undefined : new URL(location), page: await res.text() }
}

/** Register, approve with the key, exchange the code: a fresh grant's tokens. */
export const grant = async (app: TestApp, key: string) => {
  const client = await register(app)
  const { verifier, challenge } = pkce()
  const approved = await consent(app, { client_id: client.client_id, code_challenge: challenge, api_key: key })
  expect(approved.status).toBe(303)
  const code = approved.location!.searchParams.get("code")!
  const res = await form(app, "/oauth/token", {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: client.client_id
  })
  expect(res.status).toBe(200)
  const tokens = (await res.json()) as {
    access_token: string
    refresh_token: string
    expires_in: number
    token_type: string
  }
  return { client, code, verifier, tokens }
}

/** A JSON-RPC call to /mcp with a Bearer credential: the status, and the tools' names when it answered. */
export const mcpStatus = async (app: TestApp, bearer: string) => {
  const res = await fetch(`${app.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bearer}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream"
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
  })
  await res.text()
  return { status: res.status, challenge: res.headers.get("www-authenticate") }
}

/**
 * A connector as the SDK sees it: registers itself, sends the owner to the consent page (here: the page is fetched and
 * its form submitted over HTTP with the owner's key), and keeps what the server hands back.
 */
export class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  code: string | undefined
  consentPage = ""
  constructor(
    readonly app: TestApp,
    readonly key: string,
    readonly name = "Test connector"
  ) {}
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"]
    }
  }
  state() {
    return "sdk-state"
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  async redirectToAuthorization(url: URL) {
    const shown = await fetch(url)
    expect(shown.status).toBe(200)
    this.consentPage = await shown.text()
    const fields = new URLSearchParams(url.searchParams)
    fields.set("api_key", this.key)
    fields.set("decision", "approve")
    const res = await fetch(`${this.app.url}/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields,
      redirect: "manual"
    })
    expect(res.status).toBe(303)
    const back = new URL(res.headers.get("location")!)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get("state")).toBe("sdk-state")
    this.code = back.searchParams.get("code") ?? undefined
  }
}
