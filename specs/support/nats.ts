import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DeliverPolicy, jetstream } from "@nats-io/jetstream"
import { connect } from "@nats-io/transport-node"

/** The shared server of the *.nats.test.ts suites, which run only when NATS_URL is set (see vitest.config.ts). */
export const natsUrl = process.env.NATS_URL ?? ""

export const natsReachable = (url = natsUrl) =>
  connect({ servers: url, timeout: 2_000 }).then(
    (nc) => nc.close().then(() => true),
    () => false
  )

/**
 * A fresh org id for events published straight to the shared EVENTS stream. A UUID, like a real one: every engine
 * subscribed to the stream (other test files' apps) looks the org up, and a malformed id would fail its query.
 */
export const uniqueOrg = () => randomUUID()

const NATS_SERVER = "/usr/sbin/nats-server"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket()
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => (socket.destroy(), resolve(false)))
    socket.connect(port, "127.0.0.1")
  })

export interface PrivateNats {
  readonly url: string
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
  readonly dispose: () => Promise<void>
}

/**
 * A second nats-server of our own (JetStream, file store in a temp dir) that a test may stop and restart. Fails, never
 * skips, when the nats-server binary is missing or does not come up.
 */
export const startPrivateNats = async (): Promise<PrivateNats> => {
  if (!existsSync(NATS_SERVER)) {
    throw new Error(
      `${NATS_SERVER} is missing: this test starts, stops and restarts a nats-server of its own, so the binary must be installed (e.g. apt-get install nats-server)`
    )
  }
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), "nats-"))
  let child: ChildProcess | undefined
  const start = async () => {
    const spawned: { error?: Error } = {}
    const c = spawn(NATS_SERVER, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], { stdio: "ignore" })
    c.once("error", (e) => (spawned.error = e))
    child = c
    for (let i = 0; i < 200 && !spawned.error && c.exitCode === null && !(await listening(port)); i++)
      await new Promise((r) => setTimeout(r, 25))
    if (spawned.error) throw new Error(`${NATS_SERVER} could not be started: ${spawned.error.message}`)
    if (!(await listening(port)))
      throw new Error(`${NATS_SERVER} did not start listening on port ${port} within 5 s (exit code ${c.exitCode})`)
  }
  const stop = async () => {
    const c = child
    child = undefined
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve())
      c.kill("SIGTERM")
    })
  }
  try {
    await start()
  } catch (e) {
    await stop()
    await rm(dir, { recursive: true, force: true })
    throw e
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    dispose: async () => (await stop(), await rm(dir, { recursive: true, force: true }))
  }
}

export interface StoredEvent {
  readonly seq: number
  readonly subject: string
  readonly msgId: string | undefined
  readonly event: {
    readonly id: number
    readonly deployment: string
    readonly org_id: string
    readonly type: string
    readonly created_at: string
    readonly data: unknown
  }
}

/**
 * Every message of a stream (EVENTS unless named) on `subject` (e.g. events.<org>.>), in stream order; stops when none
 * came for idleMs.
 */
export const readStream = async (
  url: string,
  subject: string,
  idleMs = 1_000,
  stream = "EVENTS"
): Promise<Array<StoredEvent>> => {
  const nc = await connect({ servers: url, timeout: 5_000 })
  try {
    const consumer = await jetstream(nc).consumers.get(stream, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.All
    })
    const out: Array<StoredEvent> = []
    while (true) {
      const before = out.length
      for await (const m of await consumer.fetch({ max_messages: 1_000, expires: idleMs })) {
        out.push({
          seq: m.seq,
          subject: m.subject,
          msgId: m.headers?.get("Nats-Msg-Id"),
          event: m.json<StoredEvent["event"]>()
        })
      }
      if (out.length === before) return out
    }
  } finally {
    await nc.close()
  }
}
