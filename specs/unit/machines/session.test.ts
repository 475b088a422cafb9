import { describe, expect, it } from "vitest"
import { rowOf } from "../../../engine/machines/decide.ts"
import {
  decideSession,
  type SessionContext,
  type SessionDecision,
  type SessionEvent,
  type SessionRow,
  type SessionState,
  sessionCodes,
  sessionMachine,
  sessionMessages,
  startSession
} from "../../../engine/machines/session.ts"

const NOW = "2030-01-15T00:00:00.000Z"
const base: SessionContext = {
  starts_at: "2030-02-01T10:00:00.000Z",
  ends_at: "2030-02-01T11:00:00.000Z",
  series_id: null,
  cancelled_at: null,
  guests: null,
  note: null
}
const STATES = { scheduled: "scheduled", cancelled: "cancelled", removed: "removed" } as const satisfies Record<
  string,
  SessionState
>
type StateName = keyof typeof STATES
const contextFor: Record<StateName, Partial<SessionContext>> = {
  scheduled: {},
  cancelled: { cancelled_at: NOW, guests: "choose", note: "rain" },
  removed: {}
}
const row = (state: StateName): SessionRow => ({ value: STATES[state], context: { ...base, ...contextFor[state] } })

const moveTo = { starts_at: "2030-02-03T10:00:00.000Z", ends_at: "2030-02-03T11:00:00.000Z" }
const EVENTS = {
  cancel_refund: { type: "cancel", at: NOW, guests: "refund", note: null },
  cancel_choose: { type: "cancel", at: NOW, guests: "choose", note: "Teacher ill" },
  move_unbooked: { type: "move", at: NOW, ...moveTo, booked: 0 },
  move_booked: { type: "move", at: NOW, ...moveTo, booked: 2 },
  remove_future: { type: "remove", at: NOW },
  remove_past: { type: "remove", at: "2030-02-01T10:00:00.000Z" }
} as const satisfies Record<string, SessionEvent>
type EventName = keyof typeof EVENTS

type Expect = readonly [StateName, ReadonlyArray<string>, ReadonlyArray<string>] | string
const TABLE: Record<StateName, Record<EventName, Expect>> = {
  scheduled: {
    cancel_refund: ["cancelled", ["session.cancelled"], []],
    cancel_choose: ["cancelled", ["session.cancelled"], []],
    move_unbooked: ["scheduled", [], []],
    move_booked: "session_booked",
    remove_future: ["removed", [], []],
    remove_past: "session_started"
  },
  cancelled: {
    cancel_refund: ["cancelled", [], ["refund_choosing"]],
    cancel_choose: ["cancelled", [], []],
    move_unbooked: "session_cancelled",
    move_booked: "session_cancelled",
    remove_future: "session_cancelled",
    remove_past: "session_cancelled"
  },
  removed: {
    cancel_refund: "session_removed",
    cancel_choose: "session_removed",
    move_unbooked: "session_removed",
    move_booked: "session_removed",
    remove_future: "session_removed",
    remove_past: "session_removed"
  }
}

const ok = (decision: SessionDecision) => {
  if (!decision.ok) throw new Error(`refused: ${decision.code}`)
  return decision
}

describe("session machine: every state × every event", () => {
  for (const state of Object.keys(TABLE) as Array<StateName>) {
    for (const event of Object.keys(EVENTS) as Array<EventName>) {
      const expected = TABLE[state][event]
      it(`${state} + ${event} -> ${typeof expected === "string" ? expected : expected[0]}`, () => {
        const decision = decideSession(row(state), EVENTS[event])
        if (typeof expected === "string") {
          expect(decision).toEqual({
            ok: false,
            code: expected,
            message: sessionMessages[expected as keyof typeof sessionMessages]
          })
        } else {
          const d = ok(decision)
          expect([d.state, d.emits, d.tasks]).toEqual([STATES[expected[0]], expected[1], expected[2]])
        }
      })
    }
  }

  it("the table names every refusal code", () => {
    const used = new Set(
      Object.values(TABLE).flatMap((events) => Object.values(events).filter((e) => typeof e === "string"))
    )
    expect([...used].sort()).toEqual([...sessionCodes].sort())
  })
})

describe("session machine: the spec's Session status table", () => {
  it("created on its own emits session.created; a calendar entry's time emits nothing of its own", () => {
    expect(startSession({ starts_at: base.starts_at, ends_at: base.ends_at, series_id: null })).toMatchObject({
      state: "scheduled",
      emits: ["session.created"],
      tasks: []
    })
    expect(startSession({ starts_at: base.starts_at, ends_at: base.ends_at, series_id: "e1" })).toMatchObject({
      state: "scheduled",
      emits: [],
      tasks: []
    })
  })

  it("scheduled + sessions.cancel -> cancelled with the guests choice, session.cancelled", () => {
    const d = ok(decideSession(row("scheduled"), EVENTS.cancel_choose))
    expect(d.context).toEqual({ ...base, cancelled_at: NOW, guests: "choose", note: "Teacher ill" })
  })

  it("cancelled + sessions.cancel with guests refund -> no change to the session; cancel and refund whoever is still picking", () => {
    const before = row("cancelled")
    const d = ok(decideSession(before, EVENTS.cancel_refund))
    expect([d.state, d.context, d.emits, d.tasks]).toEqual(["cancelled", before.context, [], ["refund_choosing"]])
  })

  it("cancelled + sessions.cancel again (other cases) -> changes nothing", () => {
    const before = row("cancelled")
    const d = ok(decideSession(before, EVENTS.cancel_choose))
    expect([d.state, d.context, d.emits, d.tasks]).toEqual(["cancelled", before.context, [], []])
  })

  it("scheduled + series.delete (future time) -> removed; a past time stays on record", () => {
    expect(ok(decideSession(row("scheduled"), EVENTS.remove_future)).state).toBe("removed")
    expect(decideSession(row("scheduled"), EVENTS.remove_past)).toMatchObject({ ok: false, code: "session_started" })
  })

  it("sessions.update moves a time nobody has booked; a booked time cannot move", () => {
    const d = ok(decideSession(row("scheduled"), EVENTS.move_unbooked))
    expect(d.context).toMatchObject(moveTo)
    expect(decideSession(row("scheduled"), EVENTS.move_booked)).toMatchObject({ ok: false, code: "session_booked" })
  })
})

describe("session machine: persistence", () => {
  it("persist -> JSON -> restore -> continue", () => {
    const first = startSession({ starts_at: base.starts_at, ends_at: base.ends_at, series_id: null })
    const through = (r: SessionRow) => JSON.parse(JSON.stringify(r)) as SessionRow
    const moved = ok(decideSession(through(rowOf(first)), EVENTS.move_unbooked))
    const cancelled = ok(decideSession(through(rowOf(moved)), EVENTS.cancel_choose))
    const again = ok(decideSession(through(rowOf(cancelled)), EVENTS.cancel_refund))
    expect([again.state, again.tasks, again.context.starts_at]).toEqual([
      "cancelled",
      ["refund_choosing"],
      moveTo.starts_at
    ])
    const persisted = JSON.parse(
      JSON.stringify(sessionMachine.getPersistedSnapshot(sessionMachine.resolveState(rowOf(again))))
    ) as SessionRow
    expect(decideSession({ value: persisted.value, context: persisted.context }, EVENTS.move_unbooked)).toMatchObject({
      ok: false,
      code: "session_cancelled"
    })
  })
})
