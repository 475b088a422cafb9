import { describe, expect, it } from "vitest"
import { isForbiddenAddress, validateWebhookUrl } from "../../../transports/webhooks/safeAddress.ts"

describe("isForbiddenAddress", () => {
  it.each([
    ["loopback v4", "127.0.0.1"],
    ["loopback v4 top", "127.255.255.254"],
    ["loopback v6", "::1"],
    ["private 10/8", "10.0.0.1"],
    ["private 10/8 top", "10.255.255.255"],
    ["private 172.16/12 bottom", "172.16.0.1"],
    ["private 172.16/12 top", "172.31.255.255"],
    ["private 192.168/16", "192.168.1.1"],
    ["link-local v4 (metadata)", "169.254.169.254"],
    ["link-local v6", "fe80::1"],
    ["link-local v6 top of /10", "febf::1"],
    ["CGNAT bottom", "100.64.0.1"],
    ["CGNAT top", "100.127.255.255"],
    ["unique-local fc00", "fc00::1"],
    ["unique-local fd", "fd12:3456::1"],
    ["unspecified v4", "0.0.0.0"],
    ["this network 0/8", "0.1.2.3"],
    ["unspecified v6", "::"],
    ["multicast v4", "224.0.0.1"],
    ["multicast v4 top", "239.255.255.250"],
    ["multicast v6", "ff02::1"],
    ["broadcast", "255.255.255.255"],
    ["reserved 240/4", "240.0.0.1"],
    ["mapped loopback", "::ffff:127.0.0.1"],
    ["mapped loopback hex", "::ffff:7f00:1"],
    ["mapped loopback full form", "0:0:0:0:0:ffff:7f00:1"],
    ["mapped private 10", "::ffff:10.1.2.3"],
    ["mapped private 172", "::ffff:172.20.0.1"],
    ["mapped private 192.168", "::ffff:192.168.0.1"],
    ["mapped link-local", "::ffff:169.254.169.254"],
    ["mapped CGNAT", "::ffff:100.64.0.1"],
    ["mapped unspecified", "::ffff:0.0.0.0"],
    ["mapped multicast", "::ffff:224.0.0.1"],
    ["mapped broadcast", "::ffff:255.255.255.255"],
    ["NAT64 of loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 of metadata", "64:ff9b::a9fe:a9fe"],
    ["NAT64 for local use", "64:ff9b:1::5db8:d822"],
    ["6to4 of loopback", "2002:7f00:1::"],
    ["6to4 of 10/8", "2002:a00:1::1"],
    ["6to4 of 192.168", "2002:c0a8:101:1::1"],
    ["6to4 of metadata", "2002:a9fe:a9fe::1"],
    ["6to4 of this network", "2002::1"],
    ["Teredo with a private client", "2001:0:4136:e378:8000:63bf:f5ff:fffe"],
    ["Teredo with a loopback client", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ["Teredo with a private server", "2001:0:a00:1::1"],
    ["IPv4-translated loopback", "::ffff:0:127.0.0.1"],
    ["IPv4-translated private", "::ffff:0:a00:1"],
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["bracketed v6", "[::1]"],
    ["upper-case v6", "FE80::1"],
    ["not an address", "localhost"],
    ["empty", ""]
  ])("refuses %s (%s)", (_name, ip) => {
    expect(isForbiddenAddress(ip)).toBe(true)
  })

  it.each([
    ["public v4", "93.184.216.34"],
    ["just below 172.16/12", "172.15.255.255"],
    ["just above 172.16/12", "172.32.0.1"],
    ["just below CGNAT", "100.63.255.255"],
    ["just above CGNAT", "100.128.0.1"],
    ["just below 127/8", "126.255.255.255"],
    ["just above 169.254/16", "169.255.0.1"],
    ["public v4 1.1.1.1", "1.1.1.1"],
    ["just below multicast", "223.255.255.255"],
    ["public v6", "2606:4700:4700::1111"],
    ["global unicast v6", "2001:db9::1"],
    ["mapped public", "::ffff:93.184.216.34"],
    ["NAT64 of public", "64:ff9b::1.1.1.1"],
    ["6to4 of public", "2002:5db8:d822::1"],
    ["Teredo of public server and client", "2001:0:4136:e378:8000:63bf:fefe:fefe"]
  ])("allows %s (%s)", (_name, ip) => {
    expect(isForbiddenAddress(ip)).toBe(false)
  })
})

describe("validateWebhookUrl", () => {
  it("accepts a public https URL", () => {
    const r = validateWebhookUrl("https://hooks.example.com/in?x=1", false)
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.url.hostname).toBe("hooks.example.com")
  })

  it("refuses http unless allowInsecure", () => {
    expect(validateWebhookUrl("http://hooks.example.com/", false).ok).toBe(false)
    expect(validateWebhookUrl("http://hooks.example.com/", true).ok).toBe(true)
  })

  it.each(["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "not a url", "/relative"])(
    "refuses %s even with allowInsecure",
    (url) => {
      expect(validateWebhookUrl(url, true).ok).toBe(false)
    }
  )

  it("refuses credentials in the URL", () => {
    const r = validateWebhookUrl("https://user:pass@example.com/", false)
    expect(r).toEqual({ ok: false, message: "url must not carry credentials" })
    expect(validateWebhookUrl("https://user@example.com/", true).ok).toBe(false)
  })

  it.each([
    "https://127.0.0.1/",
    "https://127.1/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://10.0.0.5:8443/",
    "https://169.254.169.254/latest/meta-data",
    "https://[fd00::1]/",
    "https://[2002:a9fe:a9fe::1]/",
    "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",
    "https://0.0.0.0/",
    "https://localhost/",
    "https://api.localhost/"
  ])("refuses %s unless allowInsecure", (url) => {
    expect(validateWebhookUrl(url, false).ok).toBe(false)
    expect(validateWebhookUrl(url.replace("https:", "http:"), true).ok).toBe(true)
  })

  it("accepts a public IP literal", () => {
    expect(validateWebhookUrl("https://93.184.216.34/", false).ok).toBe(true)
    expect(validateWebhookUrl("https://[2606:4700:4700::1111]/", false).ok).toBe(true)
  })
})
