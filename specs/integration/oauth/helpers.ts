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

/** A signed-in person's browser as far as the consent page goes: its session cookie and CSRF token. */
export interface Signed {
  readonly cookie: string
  readonly csrf: string
  readonly email: string
}

let people = 0
/** Signs an email that is on a team in, by the mailed link, as a browser would (docs/auth.md). */
export const signIn = async (app: TestApp, email: string): Promise<Signed> => {
  const asked = await fetch(`${app.url}/auth/v1/links`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email })
  })
  expect(asked.status).toBe(202)
  const nonce = asked.headers.getSetCookie()[0].split(";")[0]
  const mails = (await app.admin("GET", `/mail?to=${encodeURIComponent(email)}`)).body.data as Array<{ text: string }>
  const link = /http\S+\/auth\/v1\/links\/\S+/.exec(mails.map((m) => m.text).join("\n"))![0]
  const followed = await fetch(link, { headers: { cookie: nonce }, redirect: "manual" })
  expect(followed.status).toBe(303)
  const cookie = followed.headers.getSetCookie()[0].split(";")[0]
  const session = await (await fetch(`${app.url}/auth/v1/session`, { headers: { cookie } })).json()
  return { cookie, csrf: session.csrf_token, email }
}

const owners = new Map<string, Signed | undefined>()
/** The org of an owner's key gets an owner member, signed in: the person who approves on the consent page. */
export const ownerOf = async (app: TestApp, key: string): Promise<Signed | undefined> => {
  if (owners.has(key)) return owners.get(key)
  const org = await app.call(key, "GET", "/api/v1/org")
  let signed: Signed | undefined
  if (org.status === 200) {
    const email = `approver${++people}@example.com`
    expect((await app.admin("POST", `/orgs/${org.body.id}/members`, { email, role: "owner" })).status).toBe(201)
    signed = await signIn(app, email)
  }
  owners.set(key, signed)
  return signed
}

/**
 * The consent form answered from the page by a signed-in person (`as`, else an owner of the org of `api_key`, else
 * nobody signed in); the 303's Location parsed (or the page when there is none).
 */
export const consent = async (app: TestApp, fields: Record<string, string>, as?: Signed) => {
  const { api_key, ...rest } = fields
  const who = as ?? (api_key ? await ownerOf(app, api_key) : undefined)
  const res = await fetch(`${app.url}/oauth/authorize`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: app.url,
      ...(who === undefined ? {} : { cookie: who.cookie })
    },
    body: new URLSearchParams({
      response_type: "code",
      redirect_uri: REDIRECT,
      code_challenge_method: "S256",
      state: "st-1",
      decision: "approve",
      ...(who === undefined ? {} : { csrf_token: who.csrf }),
      ...rest
    }),
    redirect: "manual"
  })
  const location = res.headers.get("location")
  return { status: res.status, location: location === null ? undefined : new URL(location), page: await res.text() }
}

/** Register, approve as an owner of the key's org, exchange the code: a fresh grant's tokens. */
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
 * A connector as the SDK sees it: registers itself, sends the owner to the consent page (here: the page is fetched by a
 * signed-in owner of the key's org and its form submitted over HTTP), and keeps what the server hands back.
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
    const owner = (await ownerOf(this.app, this.key))!
    const shown = await fetch(url, { headers: { cookie: owner.cookie } })
    expect(shown.status).toBe(200)
    this.consentPage = await shown.text()
    const fields = new URLSearchParams(url.searchParams)
    fields.set("csrf_token", /name="csrf_token" value="([^"]+)"/.exec(this.consentPage)![1])
    fields.set("decision", "approve")
    const res = await fetch(`${this.app.url}/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: this.app.url, cookie: owner.cookie },
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
