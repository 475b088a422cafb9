import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { jetstreamManager } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"
import { freePort, until } from "./ports.ts"
import { requireBinary, type Server, startServer } from "./process.ts"

const NATS_SERVER = "/usr/sbin/nats-server"

export interface ClusterNode {
  readonly name: string
  readonly url: string
  readonly running: () => boolean
  /** kill -9: no goodbye to the cluster. */
  readonly kill: () => Promise<void>
  /** Starts it again over the same store dir. */
  readonly start: () => Promise<void>
  /** What it has logged since it was last started. */
  readonly log: () => string
}

export interface NatsCluster {
  readonly nodes: ReadonlyArray<ClusterNode>
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  readonly url: string
  /** When a node logged that it became the leader of `stream` (epoch ms), the first such time after `after`. */
  readonly leaderElected: (stream: string, after: number) => number | undefined
  readonly dispose: () => Promise<void>
}

/** nats-server's log time (local, to the microsecond): `[pid] 2026/12/03 07:20:00.123456 [INF] ...`. */
const loggedAt = (line: string) => {
  const m = /^\[\d+\] (\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line)
  if (m === null) return undefined
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number)
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime()
}

/**
 * A JetStream cluster of `size` nats-server processes on loopback (free ports, each with its own store dir), routed to
 * one another. Fails, never skips, when the binary is missing or a node does not come up.
 */
export const startNatsCluster = async (size = 3): Promise<NatsCluster> => {
  requireBinary(NATS_SERVER, "a NATS cluster", "nats-server")
  const root = await mkdtemp(join(tmpdir(), "nats-cluster-"))
  const ports = await Promise.all(Array.from({ length: size }, async () => [await freePort(), await freePort()]))
  const routes = ports.map(([, cluster]) => `nats://127.0.0.1:${cluster}`).join(",")
  const servers: Array<Server | undefined> = ports.map(() => undefined)
  const nodes = ports.map(([client, cluster], i): ClusterNode => {
    const name = `n${i + 1}`
    const args = ["-a", "127.0.0.1", "-p", String(client), "-n", name, "-js", "-sd", join(root, name)]
    const clusterArgs = ["--cluster_name", "be", "-cluster", `nats://127.0.0.1:${cluster}`, "-routes", routes]
    const running = () => servers[i]?.running() ?? false
    const start = async () => {
      servers[i] = await startServer(NATS_SERVER, [...args, ...clusterArgs], client, `nats-server ${name}`)
    }
    const kill = async () => {
      await servers[i]?.stop()
    }
    const log = () => servers[i]?.output() ?? ""
    return { name, url: `nats://127.0.0.1:${client}`, running, kill, start, log }
  })
  const dispose = async () => {
    await Promise.all(nodes.map((n) => n.kill()))
    await rm(root, { recursive: true, force: true })
  }
  const url = nodes.map((n) => n.url).join(",")
  try {
    await Promise.all(nodes.map((n) => n.start()))
    // Ready once the cluster has elected its JetStream meta leader: the JetStream API answers.
    await until(
      async () => {
        const nc = await connect({ servers: url.split(","), timeout: 2_000 })
        try {
          await (await jetstreamManager(nc, { timeout: 2_000 })).getAccountInfo()
          return true
        } finally {
          await nc.close()
        }
      },
      30_000,
      "the cluster's JetStream",
      250
    )
  } catch (e) {
    await dispose()
    throw e
  }
  const leaderElected = (stream: string, after: number) => {
    const times = nodes
      .flatMap((n) => n.log().split("\n"))
      .filter((line) => line.includes(`new stream leader for '$G > ${stream}'`))
      .map(loggedAt)
      .filter((t): t is number => t !== undefined && t > after)
    return times.length === 0 ? undefined : Math.min(...times)
  }
  return { nodes, url, leaderElected, dispose }
}
