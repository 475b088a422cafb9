import { describe, expect, it } from "vitest"
import {
  type BookingContext,
  type BookingDecision,
  type BookingEvent,
  type BookingRow,
  type BookingState,
  bookingCodes,
  bookingMachine,
  bookingMessages,
  bookingStatus,
  decideBooking,
  startBooking
} from "../../../engine/machines/booking.ts"
import { rowOf } from "../../../engine/machines/decide.ts"

const NOW = "2030-01-15T00:00:00.000Z"
const base: BookingContext = {
  starts_at: "2030-02-01T10:00:00.000Z",
  ends_at: "2030-02-01T11:00:00.000Z",
  session_id: "s1",
  series_id: null,
  is_reseller: false,
  expires_at: "2030-01-14T00:00:00.000Z",
  confirmed_at: null,
  cancelled_at: null,
  nudged_at: null,
  choose_by: null,
  paid_at: null,
  paid_by_hand: false,
  checked_in_at: null,
  no_show_at: null,
  previous: null
}

const STATES = {
  keeping: { held: "keeping" },
  lapsed: { held: "lapsed" },
  plain: { confirmed: "plain" },
  choosing: { confirmed: "choosing" },
  cancelled: "cancelled"
} as const satisfies Record<string, BookingState>
type StateName = keyof typeof STATES

const contextFor: Record<StateName, Partial<BookingContext>> = {
  keeping: {},
  lapsed: {},
  plain: { confirmed_at: NOW },
  choosing: { confirmed_at: NOW, choose_by: "2030-01-20T23:59:59.999Z" },
  cancelled: { cancelled_at: NOW }
}

const row = (state: StateName, extra: Partial<BookingContext> = {}): BookingRow => ({
  value: STATES[state],
  context: { ...base, ...contextFor[state], ...extra }
})

const move = {
  type: "move",
  at: NOW,
  starts_at: "2030-02-02T10:00:00.000Z",
  ends_at: "2030-02-02T11:00:00.000Z",
  session_id: "s2"
} as const
const EVENTS = {
  confirm: { type: "confirm", at: NOW },
  pay: { type: "pay", at: NOW },
  lapse: { type: "lapse", at: NOW },
  nudge: { type: "nudge", at: NOW },
  cancel: { type: "cancel", at: NOW },
  move,
  call_off: { type: "call_off", at: NOW, choose_by: "2030-01-22T23:59:59.999Z" },
  choose_expired: { type: "choose_expired", at: NOW },
  time_cancelled: { type: "time_cancelled", at: NOW, starts_at: "2030-02-08T10:00:00.000Z", session_id: "s3" },
  mark_paid: { type: "mark_paid", at: NOW },
  mark_unpaid: { type: "mark_unpaid", at: NOW },
  check_in: { type: "check_in", at: NOW },
  no_show: { type: "no_show", at: NOW },
  clear_attendance: { type: "clear_attendance", at: NOW },
  checkout_opened: { type: "checkout_opened", at: NOW },
  sign_waiver: { type: "sign_waiver", at: NOW },
  extend_hold: { type: "extend_hold", at: NOW, expires_at: "2030-01-15T01:00:00.000Z" }
} as const satisfies { [K in BookingEvent["type"]]: Extract<BookingEvent, { type: K }> }
type EventName = keyof typeof EVENTS

// Accepted: [next state, emitted event names]; refused: the code.
type Expect = readonly [StateName, ReadonlyArray<string>] | string
const confirmed = ["plain", ["booking.confirmed"]] as const
const cancelled = ["cancelled", ["booking.cancelled"]] as const
const bnc = "booking_not_confirmed"
const bnh = "booking_not_held"

const TABLE: Record<StateName, Record<EventName, Expect>> = {
  keeping: {
    confirm: confirmed,
    pay: confirmed,
    lapse: ["lapsed", []],
    nudge: "hold_not_lapsed",
    cancel: cancelled,
    move: ["keeping", ["booking.moved"]],
    call_off: bnc,
    choose_expired: bnc,
    time_cancelled: "not_a_course",
    mark_paid: bnc,
    mark_unpaid: bnc,
    check_in: bnc,
    no_show: bnc,
    clear_attendance: bnc,
    // Its hold has reached expires_at (the lapse above is accepted): too late to extend.
    checkout_opened: ["keeping", []],
    sign_waiver: ["keeping", []],
    extend_hold: "hold_lapsed"
  },
  lapsed: {
    confirm: confirmed,
    pay: confirmed,
    lapse: "hold_lapsed",
    nudge: ["lapsed", ["booking.nudged"]],
    cancel: cancelled,
    move: "hold_lapsed",
    call_off: bnc,
    choose_expired: bnc,
    time_cancelled: bnc,
    mark_paid: bnc,
    mark_unpaid: bnc,
    check_in: bnc,
    no_show: bnc,
    clear_attendance: bnc,
    checkout_opened: ["lapsed", []],
    sign_waiver: "hold_lapsed",
    extend_hold: "hold_lapsed"
  },
  plain: {
    confirm: bnh,
    pay: ["plain", ["booking.paid"]],
    lapse: bnh,
    nudge: bnh,
    cancel: cancelled,
    move: ["plain", ["booking.moved"]],
    call_off: ["choosing", ["booking.called_off"]],
    choose_expired: "not_choosing",
    time_cancelled: "not_a_course",
    mark_paid: ["plain", ["booking.paid"]],
    mark_unpaid: "not_paid_by_hand",
    check_in: ["plain", ["booking.checked_in"]],
    no_show: "not_started",
    clear_attendance: ["plain", ["booking.attendance_cleared"]],
    checkout_opened: bnh,
    sign_waiver: ["plain", []],
    extend_hold: bnh
  },
  choosing: {
    confirm: bnh,
    pay: ["choosing", ["booking.paid"]],
    lapse: bnh,
    nudge: bnh,
    cancel: cancelled,
    move: ["plain", ["booking.moved"]],
    call_off: "already_called_off",
    choose_expired: "choose_by_not_passed",
    time_cancelled: "not_a_course",
    mark_paid: ["choosing", ["booking.paid"]],
    mark_unpaid: "not_paid_by_hand",
    check_in: ["choosing", ["booking.checked_in"]],
    no_show: "not_started",
    clear_attendance: ["choosing", ["booking.attendance_cleared"]],
    checkout_opened: bnh,
    sign_waiver: ["choosing", []],
    extend_hold: bnh
  },
  cancelled: Object.fromEntries(Object.keys(EVENTS).map((e) => [e, "booking_cancelled"])) as Record<EventName, Expect>
}

// Guard flips: the same state and event under the other side of its guard.
const FLIPS: ReadonlyArray<readonly [StateName, Partial<BookingContext>, BookingEvent, Expect]> = [
  ["keeping", { expires_at: "2030-01-16T00:00:00.000Z" }, EVENTS.lapse, "hold_not_expired"],
  ["keeping", { expires_at: null }, EVENTS.lapse, "hold_not_expired"],
  ["keeping", { expires_at: "2030-01-16T00:00:00.000Z" }, EVENTS.extend_hold, ["keeping", []]],
  ["lapsed", { nudged_at: "2030-01-14T01:00:00.000Z" }, EVENTS.nudge, "already_nudged"],
  ["plain", { is_reseller: true }, EVENTS.call_off, "reseller_booking"],
  ["choosing", { choose_by: "2030-01-14T23:59:59.999Z" }, EVENTS.move, "choose_by_passed"],
  ["choosing", { choose_by: "2030-01-14T23:59:59.999Z" }, EVENTS.choose_expired, cancelled],
  ["choosing", { choose_by: NOW }, EVENTS.choose_expired, cancelled],
  ["plain", { series_id: "e1" }, EVENTS.time_cancelled, ["plain", ["booking.session_cancelled"]]],
  ["keeping", { series_id: "e1" }, EVENTS.time_cancelled, ["keeping", ["booking.session_cancelled"]]],
  ["plain", { paid_by_hand: true, paid_at: NOW }, EVENTS.mark_paid, "already_paid"],
  ["plain", { paid_by_hand: true, paid_at: NOW }, EVENTS.mark_unpaid, ["plain", ["booking.unpaid"]]],
  ["plain", { paid_at: NOW }, EVENTS.mark_paid, ["plain", ["booking.paid"]]],
  ["plain", { paid_at: NOW }, EVENTS.pay, "already_paid"],
  ["choosing", { paid_by_hand: true, paid_at: NOW }, EVENTS.pay, "already_paid"],
  ["plain", { starts_at: NOW }, EVENTS.no_show, ["plain", ["booking.no_show"]]],
  ["choosing", { starts_at: "2030-01-01T00:00:00.000Z" }, EVENTS.no_show, ["choosing", ["booking.no_show"]]]
]

const check = (decision: BookingDecision, expected: Expect) => {
  if (typeof expected === "string") {
    expect(decision).toEqual({
      ok: false,
      code: expected,
      message: bookingMessages[expected as keyof typeof bookingMessages]
    })
  } else {
    expect(decision.ok).toBe(true)
    if (!decision.ok) return
    expect(decision.state).toEqual(STATES[expected[0]])
    expect(decision.emits).toEqual(expected[1])
    expect(decision.tasks).toEqual([])
  }
}

const ok = (decision: BookingDecision) => {
  if (!decision.ok) throw new Error(`refused: ${decision.code}`)
  return decision
}
const next = (decision: BookingDecision): BookingRow => {
  const { state, context } = ok(decision)
  return JSON.parse(JSON.stringify({ value: state, context })) as BookingRow
}

describe("booking machine: every state × every event", () => {
  for (const state of Object.keys(TABLE) as Array<StateName>) {
    for (const event of Object.keys(EVENTS) as Array<EventName>) {
      const expected = TABLE[state][event]
      it(`${state} + ${event} -> ${typeof expected === "string" ? expected : `${expected[0]} [${expected[1].join(", ")}]`}`, () => {
        const input = row(state)
        const frozen = JSON.stringify(input)
        check(decideBooking(input, EVENTS[event]), expected)
        expect(JSON.stringify(input)).toBe(frozen)
      })
    }
  }

  for (const [state, extra, event, expected] of FLIPS) {
    it(`guard: ${state} ${JSON.stringify(extra)} + ${event.type} -> ${typeof expected === "string" ? expected : expected[0]}`, () => {
      check(decideBooking(row(state, extra), event), expected)
    })
  }

  it("the tables name every refusal code, and every code has a message", () => {
    const used = new Set<string>()
    for (const events of Object.values(TABLE))
      for (const e of Object.values(events)) if (typeof e === "string") used.add(e)
    for (const flip of FLIPS) if (typeof flip[3] === "string") used.add(flip[3])
    expect([...used].sort()).toEqual([...bookingCodes].sort())
    for (const code of bookingCodes) expect(bookingMessages[code].length).toBeGreaterThan(0)
  })
})

describe("booking machine: the spec's Booking status table, row by row", () => {
  const created = {
    at: NOW,
    starts_at: base.starts_at,
    ends_at: base.ends_at,
    session_id: "s1",
    series_id: null,
    is_reseller: false
  }
  const hold = () => rowOf(startBooking({ ...created, hold: true, expires_at: "2030-01-15T00:15:00.000Z" }))
  const free = () => rowOf(startBooking({ ...created, hold: false, expires_at: "2030-01-15T00:15:00.000Z" }))
  const later = "2030-01-15T00:20:00.000Z"

  it("(none) + created, paid online -> held, booking.held; the hold keeps its place until expires_at", () => {
    const d = startBooking({ ...created, hold: true, expires_at: "2030-01-15T00:15:00.000Z" })
    expect([d.state, d.emits, d.context.expires_at, d.context.confirmed_at]).toEqual([
      { held: "keeping" },
      ["booking.held"],
      "2030-01-15T00:15:00.000Z",
      null
    ])
  })

  it("(none) + created, free -> confirmed, booking.confirmed", () => {
    const d = startBooking({ ...created, hold: false, expires_at: "2030-01-15T00:15:00.000Z" })
    expect([d.state, d.emits, d.context.confirmed_at, d.context.expires_at]).toEqual([
      { confirmed: "plain" },
      ["booking.confirmed"],
      NOW,
      null
    ])
  })

  it("held + payment lands, or confirm -> confirmed, booking.confirmed", () => {
    const paid = ok(decideBooking(hold(), { type: "pay", at: later }))
    expect([paid.state, paid.emits, paid.context.paid_at, paid.context.paid_by_hand]).toEqual([
      { confirmed: "plain" },
      ["booking.confirmed"],
      later,
      false
    ])
    const confirmedByOp = ok(decideBooking(hold(), { type: "confirm", at: later }))
    expect([
      confirmedByOp.state,
      confirmedByOp.emits,
      confirmedByOp.context.confirmed_at,
      confirmedByOp.context.paid_at
    ]).toEqual([{ confirmed: "plain" }, ["booking.confirmed"], later, null])
  })

  it("held + hold lapses unpaid -> held, no longer keeping its place; nudged once, booking.nudged with nudged_at", () => {
    expect(decideBooking(hold(), { type: "lapse", at: NOW })).toMatchObject({ ok: false, code: "hold_not_expired" })
    const lapsed = ok(decideBooking(hold(), { type: "lapse", at: later }))
    expect([lapsed.state, lapsed.emits]).toEqual([{ held: "lapsed" }, []])
    const nudged = ok(decideBooking(next(lapsed), { type: "nudge", at: later }))
    expect([nudged.state, nudged.emits, nudged.context.nudged_at]).toEqual([
      { held: "lapsed" },
      ["booking.nudged"],
      later
    ])
    expect(decideBooking(next(nudged), { type: "nudge", at: later })).toMatchObject({
      ok: false,
      code: "already_nudged"
    })
    expect(ok(decideBooking(next(nudged), { type: "pay", at: later })).state).toEqual({ confirmed: "plain" })
  })

  it("confirmed + cancel -> cancelled, booking.cancelled", () => {
    const d = ok(decideBooking(free(), { type: "cancel", at: later }))
    expect([d.state, d.emits, d.context.cancelled_at, d.context.choose_by]).toEqual([
      "cancelled",
      ["booking.cancelled"],
      later,
      null
    ])
    expect(bookingStatus(d.state)).toBe("cancelled")
  })

  it("confirmed + move -> confirmed at another time, booking.moved with previous", () => {
    const d = ok(decideBooking(free(), move))
    expect([d.state, d.emits]).toEqual([{ confirmed: "plain" }, ["booking.moved"]])
    expect(d.context).toMatchObject({
      starts_at: move.starts_at,
      ends_at: move.ends_at,
      session_id: "s2",
      previous: { starts_at: base.starts_at, ends_at: base.ends_at, session_id: "s1" }
    })
  })

  it("confirmed + session cancelled with guests choose -> confirmed with choose_by, booking.called_off", () => {
    const d = ok(decideBooking(free(), EVENTS.call_off))
    expect([d.state, d.emits, d.context.choose_by]).toEqual([
      { confirmed: "choosing" },
      ["booking.called_off"],
      EVENTS.call_off.choose_by
    ])
    expect(bookingStatus(d.state)).toBe("confirmed")
  })

  it("confirmed with choose_by + guest picks another time or takes the refund, before choose_by -> moved or cancelled", () => {
    const choosing = next(decideBooking(free(), EVENTS.call_off))
    const moved = ok(decideBooking(choosing, move))
    expect([moved.state, moved.emits, moved.context.choose_by]).toEqual([
      { confirmed: "plain" },
      ["booking.moved"],
      null
    ])
    const refunded = ok(decideBooking(choosing, { type: "cancel", at: later }))
    expect([refunded.state, refunded.emits, refunded.context.choose_by]).toEqual([
      "cancelled",
      ["booking.cancelled"],
      null
    ])
  })

  it("confirmed with choose_by + choose_by passes, not picked -> cancelled, booking.cancelled", () => {
    const choosing = next(decideBooking(free(), EVENTS.call_off))
    const past = "2030-01-23T00:00:00.000Z"
    expect(decideBooking(choosing, { ...move, at: past })).toMatchObject({ ok: false, code: "choose_by_passed" })
    const d = ok(decideBooking(choosing, { type: "choose_expired", at: past }))
    expect([d.state, d.emits, d.context.choose_by]).toEqual(["cancelled", ["booking.cancelled"], null])
  })

  it("held, or a reseller's booking + session cancelled with guests choose -> cancelled (never called off)", () => {
    expect(decideBooking(hold(), EVENTS.call_off)).toMatchObject({ ok: false, code: "booking_not_confirmed" })
    const reseller = rowOf(startBooking({ ...created, is_reseller: true, hold: false, expires_at: null }))
    expect(decideBooking(reseller, EVENTS.call_off)).toMatchObject({ ok: false, code: "reseller_booking" })
    for (const d of [hold(), reseller])
      expect(ok(decideBooking(d, { type: "cancel", at: later })).emits).toEqual(["booking.cancelled"])
  })

  it("any booking + session cancelled with guests refund -> cancelled", () => {
    for (const state of ["keeping", "lapsed", "plain", "choosing"] as const) {
      expect(ok(decideBooking(row(state), EVENTS.cancel)).state).toBe("cancelled")
    }
  })

  it("course booking, confirmed + one time cancelled -> stays confirmed, booking.session_cancelled, starts at the next", () => {
    const course = rowOf(startBooking({ ...created, series_id: "e1", hold: false, expires_at: null }))
    const d = ok(decideBooking(course, EVENTS.time_cancelled))
    expect([d.state, d.emits, d.context.starts_at, d.context.session_id]).toEqual([
      { confirmed: "plain" },
      ["booking.session_cancelled"],
      EVENTS.time_cancelled.starts_at,
      "s3"
    ])
  })

  it("confirmed + marked paid by hand -> paid_at set, booking.paid; reversed by booking.unpaid", () => {
    const paid = ok(decideBooking(free(), { type: "mark_paid", at: later }))
    expect([paid.state, paid.emits, paid.context.paid_at, paid.context.paid_by_hand]).toEqual([
      { confirmed: "plain" },
      ["booking.paid"],
      later,
      true
    ])
    const unpaid = ok(decideBooking(next(paid), { type: "mark_unpaid", at: later }))
    expect([unpaid.emits, unpaid.context.paid_at, unpaid.context.paid_by_hand]).toEqual([
      ["booking.unpaid"],
      null,
      false
    ])
  })

  it("confirmed by hand + payment lands -> paid online, booking.paid; once paid (online or by hand) a payment is refused", () => {
    const confirmedByOp = next(decideBooking(hold(), { type: "confirm", at: later }))
    const paid = ok(decideBooking(confirmedByOp, { type: "pay", at: later }))
    expect([
      paid.state,
      paid.emits,
      paid.context.paid_at,
      paid.context.paid_online_at,
      paid.context.paid_by_hand
    ]).toEqual([{ confirmed: "plain" }, ["booking.paid"], later, later, false])
    expect(decideBooking(next(paid), { type: "pay", at: later })).toMatchObject({ ok: false, code: "already_paid" })
    const byHand = next(decideBooking(confirmedByOp, { type: "mark_paid", at: later }))
    expect(decideBooking(byHand, { type: "pay", at: later })).toMatchObject({ ok: false, code: "already_paid" })
  })

  it("paid online, then the rest marked paid by hand and taken back -> paid_at is the online payment's again", () => {
    const paidOnline = next(decideBooking(hold(), { type: "pay", at: later }))
    const rest = next(decideBooking(paidOnline, { type: "mark_paid", at: "2030-01-16T00:00:00.000Z" }))
    const unpaid = ok(decideBooking(rest, { type: "mark_unpaid", at: "2030-01-17T00:00:00.000Z" }))
    expect([unpaid.emits, unpaid.context.paid_at, unpaid.context.paid_by_hand]).toEqual([
      ["booking.unpaid"],
      later,
      false
    ])
    expect(decideBooking(next(unpaid), { type: "pay", at: later })).toMatchObject({ ok: false, code: "already_paid" })
  })

  it("confirmed + check-in / no-show once started / attendance cleared; never both marks at once", () => {
    const started = "2030-02-01T10:05:00.000Z"
    const inside = ok(decideBooking(free(), { type: "check_in", at: started }))
    expect([inside.emits, inside.context.checked_in_at, inside.context.no_show_at]).toEqual([
      ["booking.checked_in"],
      started,
      null
    ])
    const noShow = ok(decideBooking(next(inside), { type: "no_show", at: started }))
    expect([noShow.emits, noShow.context.checked_in_at, noShow.context.no_show_at]).toEqual([
      ["booking.no_show"],
      null,
      started
    ])
    const back = ok(decideBooking(next(noShow), { type: "check_in", at: started }))
    expect([back.context.checked_in_at, back.context.no_show_at]).toEqual([started, null])
    const cleared = ok(decideBooking(next(back), { type: "clear_attendance", at: started }))
    expect([cleared.emits, cleared.context.checked_in_at, cleared.context.no_show_at]).toEqual([
      ["booking.attendance_cleared"],
      null,
      null
    ])
  })
})

describe("booking machine: persistence", () => {
  it("a row survives a JSON round trip at every step and continues the same", () => {
    const steps: ReadonlyArray<BookingEvent> = [
      { type: "lapse", at: "2030-01-15T00:20:00.000Z" },
      { type: "nudge", at: "2030-01-15T00:21:00.000Z" },
      { type: "pay", at: "2030-01-15T00:30:00.000Z" },
      move,
      EVENTS.call_off,
      { ...move, at: "2030-01-16T00:00:00.000Z" },
      { type: "mark_paid", at: "2030-01-16T00:00:00.000Z" },
      { type: "check_in", at: "2030-02-02T10:00:00.000Z" },
      { type: "cancel", at: "2030-02-02T12:00:00.000Z" }
    ]
    const first = startBooking({
      at: NOW,
      hold: true,
      starts_at: base.starts_at,
      ends_at: base.ends_at,
      session_id: "s1",
      series_id: null,
      is_reseller: false,
      expires_at: "2030-01-15T00:15:00.000Z"
    })
    let live: BookingRow = rowOf(first)
    let stored = next(first)
    for (const event of steps) {
      const a = ok(decideBooking(live, event))
      const b = ok(decideBooking(stored, event))
      expect(b).toEqual(a)
      live = rowOf(a)
      stored = next(b)
    }
    expect(stored.value).toBe("cancelled")
    expect(decideBooking(stored, EVENTS.confirm)).toMatchObject({ ok: false, code: "booking_cancelled" })
  })

  it("xstate's own persisted snapshot restores through JSON too", () => {
    const first = startBooking({
      at: NOW,
      hold: false,
      starts_at: base.starts_at,
      ends_at: base.ends_at,
      session_id: "s1",
      series_id: null,
      is_reseller: false,
      expires_at: null
    })
    const snapshot = bookingMachine.resolveState({ value: first.state, context: first.context })
    const json = JSON.parse(JSON.stringify(bookingMachine.getPersistedSnapshot(snapshot))) as BookingRow
    expect(ok(decideBooking({ value: json.value, context: json.context }, EVENTS.call_off)).state).toEqual({
      confirmed: "choosing"
    })
  })
})
