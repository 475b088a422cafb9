// An AI assistant's side of the assistant booking channel: an MCP client with no key, on /api/mcp/book/{slug}.
// Run: npx tsx examples/assistant.ts http://127.0.0.1:3000 surf-school ana@example.com
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const parsed = (res: any) => JSON.parse((res.content as Array<{ text: string }>)[0].text)

/** Finds the first offering with a free time and holds one place there for the guest; returns the hold. */
export const holdFirstFreeTime = async (base: string, slug: string, guest: { name: string; email: string }) => {
  const client = new Client({ name: "example-assistant", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/book/${slug}`)))
  try {
    const { data: offerings } = parsed(await client.callTool({ name: "list_offerings", arguments: {} })) as {
      data: Array<{ id: string; name: string }>
    }
    for (const o of offerings) {
      const { data: times } = parsed(
        await client.callTool({ name: "get_availability", arguments: { offering_id: o.id } })
      ) as { data: Array<{ starts_at: string; remaining: number; session_id?: string }> }
      const free = times.find((t) => t.remaining > 0)
      if (!free) continue
      const res = await client.callTool({
        name: "hold_booking",
        arguments: {
          offering_id: o.id,
          ...(free.session_id ? { session_id: free.session_id } : { starts_at: free.starts_at }),
          customer: guest
        }
      })
      if (res.isError) throw new Error(`hold refused: ${(res.content as Array<{ text: string }>)[0].text}`)
      return { offering: o.name, ...parsed(res) } as {
        offering: string
        reference: string
        status: string
        starts_at: string
        next: string
      }
    }
    throw new Error("no offering has a free time in the next two weeks")
  } finally {
    await client.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = "http://127.0.0.1:3000", slug = "demo", email = "guest@example.com"] = process.argv.slice(2)
  holdFirstFreeTime(base, slug, { name: "Example Guest", email }).then(
    (hold) => console.log(`Held ${hold.offering} at ${hold.starts_at} (${hold.reference}). ${hold.next}`),
    (e) => (console.error(String(e)), process.exit(1))
  )
}
