import { writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./ports.ts"
import { requireBinary, startServer } from "./process.ts"

const HAPROXY = "/usr/sbin/haproxy"

export interface Balancer {
  readonly url: string
  readonly dispose: () => Promise<void>
}

/**
 * HAProxy on a free loopback port in front of `backends` (loopback ports): round robin, /readyz as the health check
 * every 300 ms (down after one failure, up after two passes), and a request retried on another instance when its
 * connection failed, its answer never came (a killed instance) or it was 503 (a draining one). Fails, never skips,
 * when the binary is missing.
 */
export const startHaproxy = async (backends: ReadonlyArray<number>): Promise<Balancer> => {
  requireBinary(HAPROXY, "HAProxy", "haproxy")
  const dir = await mkdtemp(join(tmpdir(), "haproxy-"))
  const port = await freePort()
  const cfg = join(dir, "haproxy.cfg")
  writeFileSync(
    cfg,
    [
      "global",
      "  maxconn 4000",
      "defaults",
      "  mode http",
      "  timeout connect 1s",
      "  timeout client 30s",
      "  timeout server 30s",
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure empty-response 503",
      "frontend api",
      `  bind 127.0.0.1:${port}`,
      "  default_backend engines",
      "backend engines",
      "  balance roundrobin",
      "  option httpchk GET /readyz",
      "  http-check expect status 200",
      "  default-server inter 300ms fall 1 rise 2",
      ...backends.map((p, i) => `  server e${i + 1} 127.0.0.1:${p} check`),
      ""
    ].join("\n")
  )
  const server = await startServer(HAPROXY, ["-db", "-f", cfg], port, "haproxy").catch(async (e) => {
    await rm(dir, { recursive: true, force: true })
    throw e
  })
  const dispose = async () => {
    await server.stop()
    await rm(dir, { recursive: true, force: true })
  }
  return { url: `http://127.0.0.1:${port}`, dispose }
}
