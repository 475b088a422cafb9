import { describe, expect, it } from "vitest"
import { makeAdmission } from "../../../transports/http/admission.ts"

/** A queue over a clock the test moves, and a log of what happened to each request. */
const setup = (max: number, timeoutMs: number) => {
  let clock = 0
  const log: Array<string> = []
  const queue = makeAdmission(max, timeoutMs, () => clock)
  const push = (name: string) =>
    queue.push(
      () => log.push(`start ${name}`),
      (shutdown) => log.push(`${shutdown ? "shutting_down" : "overloaded"} ${name}`)
    )
  return { queue, log, push, tick: (ms: number) => (clock += ms) }
}

describe("admission: requests past MAX_INFLIGHT waiting for a turn", () => {
  it("starts them in arrival order, only while a turn is free, and takes no more than max", () => {
    const { queue, log, push } = setup(3, 1000)
    expect(["a", "b", "c"].map((n) => push(n) !== undefined)).toEqual([true, true, true])
    expect(push("d")).toBeUndefined()
    expect(queue.size()).toBe(3)
    let turns = 2
    queue.admit(() => turns-- > 0)
    expect(log).toEqual(["start a", "start b"])
    expect(queue.size()).toBe(1)
    expect(push("e")).toBeDefined()
    queue.admit(() => true)
    expect(log).toEqual(["start a", "start b", "start c", "start e"])
    expect(queue.size()).toBe(0)
  })

  it("a request whose client went away leaves the queue and never starts; leaving after the start changes nothing", () => {
    const { queue, log, push } = setup(2, 1000)
    const a = push("a")!
    push("b")
    queue.leave(a)
    queue.leave(a)
    expect(queue.size()).toBe(1)
    expect(push("c")).toBeDefined()
    queue.admit(() => true)
    expect(log).toEqual(["start b", "start c"])
    queue.leave(a)
    expect(queue.size()).toBe(0)
  })

  it("sheds those that waited timeoutMs, oldest first, and only those", () => {
    const { queue, log, push, tick } = setup(10, 1000)
    push("a")
    tick(400)
    push("b")
    tick(600)
    queue.expire()
    expect(log).toEqual(["overloaded a"])
    tick(399)
    queue.expire()
    expect(log).toEqual(["overloaded a"])
    tick(1)
    queue.expire()
    expect(log).toEqual(["overloaded a", "overloaded b"])
    expect(queue.size()).toBe(0)
  })

  it("answers every waiting request shutting_down on drain", () => {
    const { queue, log, push } = setup(10, 1000)
    push("a")
    push("b")
    queue.drain()
    expect(log).toEqual(["shutting_down a", "shutting_down b"])
    expect(queue.size()).toBe(0)
    queue.admit(() => true)
    expect(log).toHaveLength(2)
  })

  it("keeps its order over many pushes and admits (the consumed head is compacted)", () => {
    const { queue, log, push } = setup(100_000, 1000)
    for (let i = 0; i < 5000; i++) push(String(i))
    for (let round = 0; round < 50; round++) {
      let turns = 70
      queue.admit(() => turns-- > 0)
      for (let i = 0; i < 30; i++) push(`r${round}-${i}`)
    }
    queue.admit(() => true)
    const started = log.map((l) => l.slice("start ".length))
    const expected = [...Array.from({ length: 5000 }, (_, i) => String(i))]
    for (let round = 0; round < 50; round++) for (let i = 0; i < 30; i++) expected.push(`r${round}-${i}`)
    expect(started).toEqual(expected)
  })
})
