import { assertEvent, assign, emit, setup } from "xstate"
import { type Decision, decide, type Refusals, type Row, start } from "./decide.ts"

// Session lifecycle (spec "States and transitions", Session `status`). sessions.cancel is idempotent: on a cancelled
// session it is accepted and changes nothing, except that guests `refund` returns the task "refund_choosing"
// (cancel and refund whoever is still choosing). A cancelled time stays on record when its entry is deleted.

export type Guests = "refund" | "choose"

export interface SessionContext {
  readonly starts_at: string
  readonly ends_at: string
  readonly series_id: string | null
  readonly cancelled_at: string | null
  readonly guests: Guests | null
  readonly note: string | null
}

export interface SessionInput {
  readonly starts_at: string
  readonly ends_at: string
  readonly series_id: string | null
}

type At = { readonly at: string }
export type SessionEvent =
  | ({ readonly type: "cancel"; readonly guests: Guests; readonly note: string | null } & At)
  | ({ readonly type: "move"; readonly starts_at: string; readonly ends_at: string; readonly booked: number } & At)
  | ({ readonly type: "remove" } & At)

export type SessionEventName = "session.created" | "session.cancelled" | "task.refund_choosing"

const guards = {
  standalone: ({ context }: { context: SessionContext }) => context.series_id === null,
  refundGuests: ({ event }: { event: SessionEvent }) => event.type === "cancel" && event.guests === "refund",
  nobodyBooked: ({ event }: { event: SessionEvent }) => event.type === "move" && event.booked === 0,
  notStarted: ({ context, event }: { context: SessionContext; event: SessionEvent }) =>
    Date.parse(event.at) < Date.parse(context.starts_at)
}

const out = (event: SessionEventName) => ({ type: "outbox", params: { event } }) as const

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as { type: SessionEventName }
  },
  actions: {
    outbox: emit((_, params: { event: SessionEventName }) => ({ type: params.event })),
    recordCancel: assign(({ event }) => {
      assertEvent(event, "cancel")
      return { cancelled_at: event.at, guests: event.guests, note: event.note }
    }),
    recordMove: assign(({ event }) => {
      assertEvent(event, "move")
      return { starts_at: event.starts_at, ends_at: event.ends_at }
    })
  },
  guards
}).createMachine({
  id: "session",
  context: ({ input }) => ({ ...input, cancelled_at: null, guests: null, note: null }),
  initial: "new",
  states: {
    new: {
      always: [{ guard: "standalone", target: "scheduled", actions: out("session.created") }, { target: "scheduled" }]
    },
    scheduled: {
      on: {
        cancel: { target: "cancelled", actions: ["recordCancel", out("session.cancelled")] },
        move: { guard: "nobodyBooked", target: "scheduled", actions: "recordMove" },
        remove: { guard: "notStarted", target: "removed" }
      }
    },
    cancelled: {
      on: {
        cancel: [
          { guard: "refundGuests", target: "cancelled", actions: out("task.refund_choosing") },
          { target: "cancelled" }
        ]
      }
    },
    removed: { type: "final" }
  }
})

export const sessionMessages = {
  session_cancelled: "The session is cancelled",
  session_removed: "The session was removed",
  session_booked: "A booked time cannot move, only be cancelled",
  session_started: "The session has started; past times stay on record"
} as const

export type SessionCode = keyof typeof sessionMessages
export const sessionCodes = Object.keys(sessionMessages) as ReadonlyArray<SessionCode>

export const sessionRefusals: Refusals<SessionCode, SessionEvent["type"]> = {
  messages: sessionMessages,
  guards: { nobodyBooked: "session_booked", notStarted: "session_started" },
  states: { cancelled: { "*": "session_cancelled" }, removed: { "*": "session_removed" } },
  otherwise: "session_removed"
}

export type SessionRow = Row<typeof sessionMachine>
export type SessionState = SessionRow["value"]
export type SessionDecision = Decision<typeof sessionMachine, SessionCode>

export const startSession = (input: SessionInput) => start(sessionMachine, input)
export const decideSession = (row: SessionRow, event: SessionEvent): SessionDecision =>
  decide(sessionMachine, sessionRefusals, row, event)
