import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chownSync, existsSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { listening } from "./ports.ts"

// The servers the topology suites start on loopback (nats-server, PgBouncer, HAProxy, Postgres): one way to require
// the binary, start it, wait for its port, read what it said and stop it.

/** Servers that refuse to run as root (PgBouncer, Postgres) run as the postgres user when the tests are root. */
export const unprivileged = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
  return { uid, gid }
}

/** A temp dir the servers may write (owned by the user they run as). */
export const serverDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const as = unprivileged()
  if (as !== undefined) chownSync(dir, as.uid, as.gid)
  return dir
}

/** A suite that runs a server of its own fails, never skips, when its binary is missing. */
export const requireBinary = (path: string, what: string, pkg: string) => {
  if (!existsSync(path))
    throw new Error(`${path} is missing: this test runs ${what} of its own (apt-get install ${pkg})`)
}

export interface SpawnOptions {
  readonly uid?: number
  readonly gid?: number
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
}

export interface Server {
  readonly running: () => boolean
  /** What it wrote to stdout and stderr, the last 1 MiB. */
  readonly output: () => string
  /** Sends `signal` (SIGKILL: no goodbye) and resolves once it has exited. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

// A server started here never outlives the test process, however that ends (a globalSetup that stops the run at once).
const started = new Set<ChildProcess>()
process.on("exit", () => {
  for (const c of started) c.kill("SIGKILL")
})

/** `bin` with `args`, its output kept. */
export const spawnServer = (bin: string, args: ReadonlyArray<string>, options: SpawnOptions = {}): Server => {
  const child = spawn(bin, args, { ...options, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let failure: Error | undefined
  const take = (d: Buffer) => {
    out = out.length > 1 << 20 ? out.slice(-(1 << 19)) + d : out + d
  }
  child.stdout?.on("data", take)
  child.stderr?.on("data", take)
  child.once("error", (e) => {
    failure = e
    out += `\n${bin} could not be started: ${e.message}`
  })
  started.add(child)
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.once("error", () => resolve())
  }).then(() => void started.delete(child))
  const running = () => failure === undefined && child.exitCode === null && child.signalCode === null
  return {
    running,
    output: () => out,
    stop: async (signal = "SIGKILL") => {
      if (running()) child.kill(signal)
      await exited
    }
  }
}

/** Waits until `server` listens on the loopback `port`; fails at once, with its last words, when it exits first. */
export const untilListening = async (server: Server, port: number, what: string, ms = 10_000) => {
  const end = Date.now() + ms
  const said = () => server.output().trim().slice(-300)
  while (Date.now() < end) {
    if (!server.running()) throw new Error(`${what} exited before it listened on ${port}: ${said()}`)
    if (await listening(port)) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`${what} did not listen on ${port} within ${ms} ms: ${said()}`)
}

/** `bin` started and listening on `port`, or stopped again and the reason thrown. */
export const startServer = async (
  bin: string,
  args: ReadonlyArray<string>,
  port: number,
  what: string,
  options: SpawnOptions = {}
): Promise<Server> => {
  const server = spawnServer(bin, args, options)
  try {
    await untilListening(server, port, what)
  } catch (e) {
    await server.stop()
    throw e
  }
  return server
}

/** Runs a binary to its exit, its output ignored (a server it starts keeps no pipe of ours open). */
export const runToExit = (bin: string, args: ReadonlyArray<string>, options: SpawnOptions & { cwd: string }) =>
  new Promise<void>((resolve, reject) => {
    const c = spawn(bin, args, { ...options, stdio: "ignore" })
    const late = setTimeout(() => c.kill("SIGKILL"), 60_000)
    c.once("error", reject)
    c.once("exit", (code) => {
      clearTimeout(late)
      code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(" ")} exited with ${code}`))
    })
  })
