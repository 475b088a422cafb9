import type { IncomingMessage } from "node:http"
import { BlockList, isIP } from "node:net"
import { Context } from "effect"

/**
 * TRUST_PROXY: the balancers and proxies in front (addresses or CIDRs). A request whose peer is one of them is from
 * the address `X-Forwarded-For` names: read from the right, the first address that is not itself a trusted proxy.
 * From any other peer (and with none trusted, the default) the header is ignored, so no client can name its own.
 */
export class TrustedProxies extends Context.Tag("TrustedProxies")<TrustedProxies, { readonly list: BlockList }>() {}

const bare = (address: string) => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped !== null ? mapped[1] : address
}

/** One entry of TRUST_PROXY: an address (127.0.0.1, ::1) or a CIDR (10.0.0.0/8, fd00::/8); undefined if neither. */
const entry = (text: string) => {
  const [address, bits, more] = text.trim().split("/")
  const family = isIP(address)
  if (family === 0 || more !== undefined) return undefined
  if (bits === undefined) return { address, family, prefix: undefined }
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN
  return prefix <= (family === 4 ? 32 : 128) ? { address, family, prefix } : undefined
}

/** Whether TRUST_PROXY's text is a comma-separated list of addresses and CIDRs. */
export const isProxyList = (text: string) => text.split(",").every((t) => entry(t) !== undefined)

/** The BlockList of TRUST_PROXY's entries (empty: none trusted). */
export const proxyList = (text: string | undefined) => {
  const list = new BlockList()
  for (const t of (text ?? "").split(",").filter((s) => s.trim() !== "")) {
    const e = entry(t)
    if (e === undefined) continue
    const type = e.family === 4 ? "ipv4" : "ipv6"
    if (e.prefix === undefined) list.addAddress(e.address, type)
    else list.addSubnet(e.address, e.prefix, type)
  }
  return list
}

const trusts = (list: BlockList, address: string) => {
  const a = bare(address)
  const family = isIP(a)
  return family !== 0 && list.check(a, family === 4 ? "ipv4" : "ipv6")
}

const resolved = new WeakMap<IncomingMessage, string>()

/**
 * The client's address: the peer's, or, when the peer is a trusted proxy, the rightmost untrusted address of
 * X-Forwarded-For (all of them trusted: the leftmost). Kept with the request, so every limit and the log agree.
 */
export const resolveClient = (req: IncomingMessage, list: BlockList) => {
  const peer = bare(req.socket.remoteAddress ?? "unknown")
  let client = peer
  const header = req.headers["x-forwarded-for"]
  if (header !== undefined && trusts(list, peer)) {
    const hops = (Array.isArray(header) ? header.join(",") : header)
      .split(",")
      .map((h) => bare(h.trim()))
      .filter((h) => isIP(h) !== 0)
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i]
      if (!trusts(list, hops[i])) break
    }
  }
  resolved.set(req, client)
  return client
}

/** The address resolveClient found for the request, else its peer's. */
export const peerOf = (req: Pick<IncomingMessage, "socket">) =>
  resolved.get(req as IncomingMessage) ?? bare(req.socket.remoteAddress ?? "unknown")
