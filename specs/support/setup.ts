import { Socket } from "node:net"
import type { TestProject } from "vitest/node"
import { buildAll } from "../../scripts/buildAll.mjs"
import { admin, dropPostgresTemplate, pgliteTemplate, pgliteTemplateDir, postgresTemplate } from "./template.ts"

/**
 * globalSetup, once per run: a server named in DATABASE_URL or NATS_URL must answer (else the run stops with one line),
 * then the migrated template every test database is copied from (see template.ts), and dist built from the current
 * source (all of it but the types, ~5 s): the suites that start the engine as a process (`node dist/server.mjs`, as
 * `npm start` does), the browser suites (the widget and the console it serves) and the pack suite read it, and none
 * builds it: a build removes dist/chunks, which a server another suite had just started would then fail to load.
 */
const configured = (name: string) => process.env[name] ?? ""

const stop = (line: string): never => {
  // One line, no stack: the fix is in the message.
  process.stderr.write(`\n${line}\n\n`)
  process.exit(1)
}

const reason = (e: unknown) => (e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e))

const tcp = (url: string, defaultPort: number) =>
  new Promise<void>((resolve, reject) => {
    const u = new URL(url)
    const socket = new Socket()
    socket.setTimeout(5_000, () => (socket.destroy(), reject(new Error("no answer within 5 s"))))
    socket.once("connect", () => (socket.destroy(), resolve()))
    socket.once("error", (e) => (socket.destroy(), reject(e)))
    socket.connect(Number(u.port || defaultPort), u.hostname || "127.0.0.1")
  })

/** The checks, the build of dist (`build`: the suites that run it need it) and the templates; returns the teardown. */
export const prepare = async (project: TestProject, { build = true } = {}) => {
  const databaseUrl = configured("DATABASE_URL")
  const natsUrl = configured("NATS_URL")
  if (databaseUrl !== "") {
    await admin(databaseUrl, (c) => c.query("select 1")).catch((e) =>
      stop(
        `DATABASE_URL=${databaseUrl} is set but the database does not answer (${reason(e)}): start it, or run with DATABASE_URL= for PGlite`
      )
    )
  }
  if (natsUrl !== "") {
    await tcp(natsUrl, 4222).catch((e) =>
      stop(
        `NATS_URL=${natsUrl} is set but NATS does not answer (${reason(e)}): start it, or run with NATS_URL= for the in-process bus`
      )
    )
  }
  if (build) await buildAll()
  // Always made (cached by the migrations' hash): suites that start the engine or the CLI over a data dir seed it from this.
  const embedded = await pgliteTemplate()
  project.provide("pgliteTemplateDir", await pgliteTemplateDir(embedded))
  if (databaseUrl === "") {
    project.provide("databaseTemplate", embedded)
    return
  }
  // Made on Postgres itself when DATABASE_URL is a pooler (vitest.pgbouncer.config.ts): see database.ts's adminUrl.
  const direct = configured("DATABASE_DIRECT_URL") || databaseUrl
  const name = await postgresTemplate(direct)
  project.provide("databaseTemplate", name)
  return () => dropPostgresTemplate(direct, name)
}

export default function setup(project: TestProject) {
  return prepare(project)
}
