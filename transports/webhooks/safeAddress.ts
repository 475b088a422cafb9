import { BlockList, isIP } from "node:net"

const forbidden = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", incl. unspecified 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, incl. broadcast 255.255.255.255
] as const)
  forbidden.addSubnet(net, prefix, "ipv4")
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["64:ff9b:1::", 48] // NAT64 for local use (RFC 8215): a translator inside some network, to its own IPv4
] as const)
  forbidden.addSubnet(net, prefix, "ipv6")

/** True for any address a webhook must never reach; anything that is not an IP is refused too. */
export const isForbiddenAddress = (ip: string): boolean => {
  const address = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip
  const family = isIP(address)
  if (family === 4) return forbidden.check(address, "ipv4")
  if (family !== 6) return true
  if (embeddedIPv4(address).some((v4) => forbidden.check(v4, "ipv4"))) return true
  return forbidden.check(address, "ipv6")
}

const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".")

/**
 * The IPv4 addresses an IPv6 address carries, which a packet to it may end up at: IPv4-mapped (::ffff:0:0/96),
 * IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, the IPv4 after the prefix) and Teredo
 * (2001::/32: its server's IPv4, and its client's, stored inverted in the last 32 bits). IPv4-compatible
 * (::/96) and local-use NAT64 (64:ff9b:1::/48) are refused whole.
 */
const embeddedIPv4 = (ip: string): ReadonlyArray<string> => {
  const words = expand(ip)
  if (words === null) return []
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0)
  if (zero(0, 5) && words[5] === 0xffff) return [v4(words[6], words[7])]
  if (zero(0, 4) && words[4] === 0xffff && words[5] === 0) return [v4(words[6], words[7])]
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return [v4(words[6], words[7])]
  if (words[0] === 0x2002) return [v4(words[1], words[2])]
  if (words[0] === 0x2001 && words[1] === 0) return [v4(words[2], words[3]), v4(words[6] ^ 0xffff, words[7] ^ 0xffff)]
  return []
}

const expand = (ip: string): Array<number> | null => {
  let text = ip.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number)
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split("::")
  const left = head ? head.split(":") : []
  const right = tail ? tail.split(":") : []
  const fill = tail === undefined ? 0 : 8 - left.length - right.length
  const words = [...left, ...Array<string>(fill).fill("0"), ...right].map((w) => parseInt(w, 16))
  return words.length === 8 && words.every((w) => w >= 0 && w <= 0xffff) ? words : null
}

const loopbackNames = /^(localhost|.*\.localhost|localhost\.localdomain)\.?$/i

export type UrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string }

/**
 * A webhook URL is https (http too when allowInsecure), carries no credentials, and does not name a
 * forbidden address literally. Hostnames are checked again at connect time, see deliver.ts.
 */
export const validateWebhookUrl = (raw: string, allowInsecure: boolean): UrlCheck => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, message: "url must be an absolute URL" }
  }
  const schemes = allowInsecure ? ["https:", "http:"] : ["https:"]
  if (!schemes.includes(url.protocol)) return { ok: false, message: "url must use https" }
  if (url.username !== "" || url.password !== "") return { ok: false, message: "url must not carry credentials" }
  if (url.hostname === "") return { ok: false, message: "url must name a host" }
  if (!allowInsecure) {
    const host = url.hostname
    if (loopbackNames.test(host)) return { ok: false, message: "url must not point at this machine" }
    if (isIP(host.replace(/^\[|\]$/g, "")) !== 0 && isForbiddenAddress(host)) {
      return { ok: false, message: "url must not point at a private, loopback or reserved address" }
    }
  }
  return { ok: true, url }
}
