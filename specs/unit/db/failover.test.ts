import { describe, expect, it } from "vitest"
import { hostsOf, needsConnector } from "../../../adapters/db/failover.ts"

describe("libpq's multi-host URL", () => {
  it("names each host and port, and the URL of each without target_session_attrs", () => {
    const { hosts, urlOf, readWrite } = hostsOf(
      "postgres://app:secret@db1:5432,db2:6432,[fd00::3]/booking?target_session_attrs=read-write&sslmode=disable"
    )
    expect(hosts).toEqual([
      { host: "db1", port: 5432 },
      { host: "db2", port: 6432 },
      { host: "fd00::3", port: 5432 }
    ])
    expect(readWrite).toBe(true)
    expect(urlOf(hosts[1])).toBe("postgres://app:secret@db2:6432/booking?sslmode=disable")
    expect(urlOf(hosts[2])).toBe("postgres://app:secret@[fd00::3]:5432/booking?sslmode=disable")
  })

  it("a URL of one host without target_session_attrs goes to node-pg as it is", () => {
    expect(needsConnector("postgres://postgres@127.0.0.1:5432/test")).toBe(false)
    expect(needsConnector("postgres://postgres@127.0.0.1:5432/test?target_session_attrs=read-write")).toBe(true)
    expect(needsConnector("postgresql://u@a,b/db")).toBe(true)
    expect(hostsOf("postgresql://u@a,b/db").hosts).toEqual([
      { host: "a", port: 5432 },
      { host: "b", port: 5432 }
    ])
  })
})
