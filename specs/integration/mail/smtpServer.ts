import { SMTPServer } from "smtp-server"

export interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

/** A real SMTP server on loopback. `reject` makes it refuse recipients with a temporary 451 until cleared. */
export const startSmtp = async () => {
  const received: Array<Received> = []
  const state = { reject: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.reject) return callback()
      callback(Object.assign(new Error("mailbox unavailable, try later"), { responseCode: 451 }))
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8")
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}
