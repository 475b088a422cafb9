/**
 * The flash bench's floor: a bare node:http server that does nothing but answer, with the listen backlog the engine
 * uses (4,096). A POST has its JSON body read and parsed and is answered 409 sold_out; a GET (the widget's poll) 200
 * with one time and no place left. Every guest of the crowd is still a new TCP connection from the same bench process,
 * so what this server's crowd takes is what the machine, the kernel and the bench's client take: the least any engine
 * could. `node bench/flashFloor.mjs <port>`; started by bench/flash.ts (build "floor").
 */
import http from "node:http"

const body = JSON.stringify({ error: { code: "sold_out", message: "this time has no places left" } })
const s = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    if (req.method === "GET") {
      const b = JSON.stringify({ data: [{ session_id: "s", remaining: 0 }] })
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(b) })
      return res.end(b)
    }
    try {
      JSON.parse(Buffer.concat(chunks).toString())
    } catch {}
    res.writeHead(409, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    res.end(body)
  })
})
s.listen({ port: Number(process.argv[2]), host: "127.0.0.1", backlog: 4096 }, () => process.send?.("ready"))
