// A connector client (what Claude, ChatGPT or the MCP Inspector do) signing in to /mcp with OAuth 2.1, then using
// the org's tools. The server must know its own address: start it with PUBLIC_URL set to the URL you pass here.
// Run: npx tsx examples/connector.ts http://127.0.0.1:3000
//   It prints a link. The org's owner, signed in to the console, opens it in that browser and approves; the browser
//   comes back to this script's loopback address, which finishes the sign-in and lists the org's offerings.
// Unattended (a demo, CI): npx tsx examples/connector.ts http://127.0.0.1:3000 --approve-with 'session=…'
//   answers the consent page itself with a signed-in owner's session cookie, as the owner's browser would.

import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"

/** Keeps what the server hands back in memory (a real connector stores it per user). */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  readonly expectedState = randomBytes(16).toString("hex")
  constructor(
    readonly redirect: string,
    readonly open: (url: URL) => Promise<void>
  ) {}
  get redirectUrl() {
    return this.redirect
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Example connector",
      redirect_uris: [this.redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"]
    }
  }
  state() {
    return this.expectedState
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
  redirectToAuthorization(url: URL) {
    return this.open(url)
  }
}

/** Submits the consent form with the owner's key and follows the redirect back, as the owner's browser would. */
const approveAs = (sessionCookie: string) => async (url: URL) => {
  const shown = await fetch(url, { headers: { cookie: sessionCookie } })
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await shown.text())?.[1]
  if (csrf === undefined) throw new Error(`the consent page refused: ${shown.status} (sign in as an owner first)`)
  const fields = new URLSearchParams(url.searchParams)
  fields.set("csrf_token", csrf)
  fields.set("decision", "approve")
  const res = await fetch(new URL("/oauth/authorize", url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: sessionCookie, origin: url.origin },
    body: fields,
    redirect: "manual"
  })
  const location = res.headers.get("location")
  if (res.status !== 303 || location === null)
    throw new Error(`the consent page refused: ${res.status} ${(await res.text()).slice(0, 300)}`)
  await fetch(location)
}

/** Signs in to `${base}/mcp` and lists the org's offerings through the MCP tool offerings_list. */
export const connectAndList = async (
  base: string,
  options: { approveWith?: string; log?: (line: string) => void } = {}
) => {
  const log = options.log ?? console.log
  // The loopback address the owner's browser comes back to with the code (RFC 8252).
  let arrived: (code: string) => void = () => {}
  let refused: (e: Error) => void = () => {}
  const code = new Promise<string>((resolve, reject) => ((arrived = resolve), (refused = reject)))
  let provider: MemoryProvider | undefined
  const callback = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    const got = url.searchParams.get("code")
    if (url.pathname !== "/callback" || url.searchParams.get("state") !== provider?.expectedState || got === null) {
      res
        .writeHead(400, { "content-type": "text/plain" })
        .end(`Not signed in: ${url.searchParams.get("error") ?? "unexpected callback"}`)
      if (url.pathname === "/callback")
        refused(new Error(`authorization failed: ${url.searchParams.get("error") ?? "bad state"}`))
      return
    }
    res.writeHead(200, { "content-type": "text/plain" }).end("Signed in. You can close this window.")
    arrived(got)
  })
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve))
  const redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`
  try {
    provider = new MemoryProvider(
      redirect,
      options.approveWith
        ? approveAs(options.approveWith)
        : async (url) => log(`Open this link where you are signed in as the org's owner, and approve:\n${url.href}`)
    )
    const serverUrl = `${base}/mcp`
    if ((await auth(provider, { serverUrl })) === "REDIRECT") {
      if ((await auth(provider, { serverUrl, authorizationCode: await code })) !== "AUTHORIZED")
        throw new Error("the code was not accepted")
    }
    log(`Signed in as app ${provider.info?.client_id}; access token ${provider.saved?.access_token.slice(0, 12)}…`)
    const client = new Client({ name: "example-connector", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }))
    try {
      const tools = await client.listTools()
      const listed = await client.callTool({ name: "offerings_list", arguments: {} })
      if (listed.isError) throw new Error(`offerings_list refused: ${JSON.stringify(listed.content)}`)
      const text = (listed.content as Array<{ type: string; text: string }>)[0].text
      const offerings = (JSON.parse(text) as { data: Array<{ name: string }> }).data.map((o) => o.name)
      log(`${tools.tools.length} tools; offerings: ${offerings.join(", ") || "none yet"}`)
      return { clientId: provider.info?.client_id, tools: tools.tools.length, offerings }
    } finally {
      await client.close()
    }
  } finally {
    callback.closeAllConnections()
    await new Promise((resolve) => callback.close(resolve))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = "http://127.0.0.1:3000", flag, key] = process.argv.slice(2)
  connectAndList(base.replace(/\/+$/, ""), flag === "--approve-with" ? { approveWith: key } : {}).then(
    () => process.exit(0),
    (e) => {
      console.error(e instanceof Error ? e.message : e)
      process.exit(1)
    }
  )
}
