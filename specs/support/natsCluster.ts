import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { jetstreamManager } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"
import { freePort, listening, until } from "./ports.ts"

const NATS_SERVER = "/usr/sbin/nats-server"

export interface ClusterNode {
  readonly name: string
  readonly url: string
  readonly running: () => boolean
  /** kill -9: no goodbye to the cluster. */
  readonly kill: () => Promise<void>
  /** Starts it again over the same store dir. */
  readonly start: () => Promise<void>
}

export interface NatsCluster {
  readonly nodes: ReadonlyArray<ClusterNode>
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  readonly url: string
  readonly dispose: () => Promise<void>
}

/**
 * A JetStream cluster of `size` nats-server processes on loopback (free ports, each with its own store dir), routed to
 * one another. Fails, never skips, when the binary is missing or a node does not come up.
 */
export const startNatsCluster = async (size = 3): Promise<NatsCluster> => {
  if (!existsSync(NATS_SERVER))
    throw new Error(`${NATS_SERVER} is missing: this test runs a NATS cluster of its own (apt-get install nats-server)`)
  const root = await mkdtemp(join(tmpdir(), "nats-cluster-"))
  const ports = await Promise.all(Array.from({ length: size }, async () => [await freePort(), await freePort()]))
  const routes = ports.map(([, cluster]) => `nats://127.0.0.1:${cluster}`).join(",")
  const children: Array<ChildProcess | undefined> = ports.map(() => undefined)
  const nodes = ports.map(([client, cluster], i): ClusterNode => {
    const name = `n${i + 1}`
    const args = ["-a", "127.0.0.1", "-p", String(client), "-n", name, "-js", "-sd", join(root, name)]
    const clusterArgs = ["--cluster_name", "be", "-cluster", `nats://127.0.0.1:${cluster}`, "-routes", routes]
    const running = () => {
      const c = children[i]
      return c !== undefined && c.exitCode === null && c.signalCode === null
    }
    const start = async () => {
      const failed: { error?: Error } = {}
      const c = spawn(NATS_SERVER, [...args, ...clusterArgs], { stdio: "ignore" })
      c.once("error", (e) => (failed.error = e))
      children[i] = c
      for (let n = 0; n < 400 && !failed.error && running() && !(await listening(client)); n++)
        await new Promise((r) => setTimeout(r, 25))
      if (failed.error) throw new Error(`${NATS_SERVER} could not be started: ${failed.error.message}`)
      if (!(await listening(client))) throw new Error(`nats-server ${name} did not listen on ${client} within 10 s`)
    }
    const kill = async () => {
      const c = children[i]
      if (c === undefined || !running()) return
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve())
        c.kill("SIGKILL")
      })
    }
    return { name, url: `nats://127.0.0.1:${client}`, running, kill, start }
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
  return { nodes, url, dispose }
}
