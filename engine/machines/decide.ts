import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type ContextFrom,
  type EventFromLogic,
  getNextTransitions,
  type InputFrom,
  initialTransition,
  type SnapshotFrom,
  type StateValue,
  transition
} from "xstate"

// Pure evaluation of a lifecycle machine: restore from a row, take one event, report what changed.
// Domain events are xstate `emit`s; an emitted type starting with "task." is work for the service, not an outbox event.

export interface Row<M extends AnyStateMachine> {
  readonly value: SnapshotFrom<M>["value"]
  readonly context: ContextFrom<M>
}

export interface Accepted<M extends AnyStateMachine> {
  readonly ok: true
  readonly state: SnapshotFrom<M>["value"]
  readonly context: ContextFrom<M>
  readonly emits: ReadonlyArray<string>
  readonly tasks: ReadonlyArray<string>
}

export interface Refused<C extends string> {
  readonly ok: false
  readonly code: C
  readonly message: string
}

export type Decision<M extends AnyStateMachine, C extends string> = Accepted<M> | Refused<C>

/** Why an event is refused: the failing guard's code, else the deepest state path's code for the event (or "*"). */
export interface Refusals<C extends string, E extends string> {
  readonly messages: Readonly<Record<C, string>>
  readonly guards: Readonly<Record<string, C>>
  readonly states: Readonly<Record<string, Partial<Record<E | "*", C>>>>
  readonly otherwise: C
}

const TASK = "task."

/** Deepest path first: { held: "lapsed" } -> ["held.lapsed", "held"]. */
export const statePaths = (value: StateValue, prefix = ""): Array<string> =>
  typeof value === "string"
    ? [prefix + value]
    : Object.entries(value).flatMap(([key, child]) =>
        child === undefined ? [prefix + key] : [...statePaths(child, `${prefix}${key}.`), prefix + key]
      )

export const restore = <M extends AnyStateMachine>(machine: M, row: Row<M>): SnapshotFrom<M> =>
  machine.resolveState({ value: row.value as StateValue, context: row.context }) as SnapshotFrom<M>

const accepted = <M extends AnyStateMachine>(
  snapshot: AnyMachineSnapshot,
  actions: ReadonlyArray<{ readonly type: string; readonly params?: unknown }>
): Accepted<M> => {
  const emitted = actions
    .filter((action) => action.type === "xstate.emit")
    .map((action) => (action.params as { readonly event: { readonly type: string } }).event.type)
  return {
    ok: true,
    state: snapshot.value as SnapshotFrom<M>["value"],
    context: snapshot.context as ContextFrom<M>,
    emits: emitted.filter((type) => !type.startsWith(TASK)),
    tasks: emitted.filter((type) => type.startsWith(TASK)).map((type) => type.slice(TASK.length))
  }
}

const refuse = <C extends string, E extends string>(
  snapshot: AnyMachineSnapshot,
  type: string,
  refusals: Refusals<C, E>
): Refused<C> => {
  const guard = getNextTransitions(snapshot)
    .filter((t) => t.eventType === type && t.guard !== undefined)
    .map((t) => (typeof t.guard === "string" ? t.guard : (t.guard as { type?: string }).type))
    .find((name): name is string => name !== undefined && name in refusals.guards)
  const byState = statePaths(snapshot.value)
    .map((path) => refusals.states[path]?.[type as E] ?? refusals.states[path]?.["*"])
    .find((code) => code !== undefined)
  const code = (guard === undefined ? undefined : refusals.guards[guard]) ?? byState ?? refusals.otherwise
  return { ok: false, code, message: refusals.messages[code] }
}

/** The row to persist after an accepted decision. */
export const rowOf = <M extends AnyStateMachine>(accepted: Accepted<M>): Row<M> => ({
  value: accepted.state,
  context: accepted.context
})

/** The initial snapshot for `input`, with whatever its entry emits. */
export const start = <M extends AnyStateMachine>(
  machine: M,
  ...[input]: undefined extends InputFrom<M> ? [input?: InputFrom<M>] : [input: InputFrom<M>]
): Accepted<M> => {
  const [snapshot, actions] = initialTransition(machine as AnyStateMachine, input)
  return accepted<M>(snapshot, actions)
}

export const decide = <M extends AnyStateMachine, C extends string>(
  machine: M,
  refusals: Refusals<C, EventFromLogic<M>["type"]>,
  row: Row<M>,
  event: EventFromLogic<M>
): Decision<M, C> => {
  const snapshot: AnyMachineSnapshot = restore(machine, row)
  // Accepted iff xstate's own `snapshot.can(event)` (guards evaluated; enabled transition with a target or actions) on a live snapshot.
  if (snapshot.status !== "active" || !snapshot.can(event)) return refuse(snapshot, event.type, refusals)
  const [next, actions] = transition(machine as AnyStateMachine, snapshot, event)
  return accepted<M>(next, actions)
}
