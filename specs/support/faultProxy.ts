import { createConnection, createServer, type Server, type Socket } from "node:net"

/**
 * A TCP proxy on loopback in front of Postgres that plays the faults an operator meets:
 * - `down()`: every connection cut and new ones reset at once (a server that stopped or restarted); `up()` ends it.
 * - `freeze()`: connections stay open but no byte moves either way, new ones are accepted and wait (a server stopped
 *   by SIGSTOP, or a network that drops packets); `thaw()` lets everything through again.
 * - `tooMany()`: new connections are answered as Postgres answers past max_connections (FATAL 53300) and closed.
 * It counts connections: open now, the most open at once, and when each was attempted.
 */
export const startFaultProxy = async (target: { host: string; port: number }) => {
  type Pair = { client: Socket; upstream?: Socket; held: Array<[Socket, Buffer]> }
  const pairs = new Set<Pair>()
  let mode: "up" | "down" | "frozen" | "too_many" = "up"
  let maxOpen = 0
  const attempts: Array<number> = []

  const close = (p: Pair) => {
    if (!pairs.delete(p)) return
    p.client.destroy()
    p.upstream?.destroy()
  }
  const forward = (p: Pair, from: Socket, to: () => Socket | undefined) =>
    from.on("data", (chunk: Buffer) => {
      const dest = to()
      if (mode === "frozen" || dest === undefined) p.held.push([from, chunk])
      else dest.write(chunk)
    })
  const connectUpstream = (p: Pair) => {
    const upstream = createConnection(target)
    p.upstream = upstream
    upstream.on("error", () => close(p))
    upstream.on("close", () => close(p))
    forward(p, upstream, () => p.client)
    for (const [from, chunk] of p.held.splice(0)) (from === p.client ? upstream : p.client).write(chunk)
  }

  const accepted = new Set<Socket>()
  const server: Server = createServer((client) => {
    attempts.push(Date.now())
    accepted.add(client)
    client.on("close", () => accepted.delete(client))
    client.on("error", () => undefined)
    if (mode === "down") return void client.destroy()
    if (mode === "too_many") return void client.end(tooManyClients(), () => client.destroy())
    const p: Pair = { client, held: [] }
    pairs.add(p)
    maxOpen = Math.max(maxOpen, pairs.size)
    client.on("close", () => close(p))
    forward(p, client, () => p.upstream)
    if (mode !== "frozen") connectUpstream(p)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))

  const thaw = () => {
    mode = "up"
    for (const p of pairs) {
      if (p.upstream === undefined) connectUpstream(p)
      else for (const [from, chunk] of p.held.splice(0)) (from === p.client ? p.upstream : p.client).write(chunk)
    }
  }
  return {
    port: (server.address() as { port: number }).port,
    down: () => {
      mode = "down"
      for (const p of [...pairs]) close(p)
    },
    up: () => void (mode = "up"),
    freeze: () => void (mode = "frozen"),
    thaw,
    tooMany: () => {
      mode = "too_many"
      for (const p of [...pairs]) close(p)
    },
    /** Connections open through the proxy now. */
    open: () => pairs.size,
    /** The most connections open at once since the last reset. */
    maxOpen: () => maxOpen,
    resetMax: () => void (maxOpen = pairs.size),
    /** Connection attempts between two instants (ms since the epoch). */
    attemptsBetween: (from: number, to: number) => attempts.filter((t) => t >= from && t < to).length,
    close: () => {
      for (const p of [...pairs]) close(p)
      for (const c of accepted) c.destroy()
      return new Promise<void>((r) => server.close(() => r()))
    }
  }
}
export type FaultProxy = Awaited<ReturnType<typeof startFaultProxy>>

/** The ErrorResponse Postgres sends a client past max_connections: FATAL, SQLSTATE 53300. */
const tooManyClients = () => {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", "53300"],
      ["M", "sorry, too many clients already"]
    ]
      .map(([k, v]) => Buffer.from(`${k}${v}\0`, "utf8"))
      .concat(Buffer.from([0]))
  )
  const head = Buffer.alloc(5)
  head.write("E", 0, "ascii")
  head.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([head, fields])
}
