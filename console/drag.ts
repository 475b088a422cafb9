import { useEffect, useRef, useState } from "preact/hooks"
import { PX, snap } from "./calendarGrid.ts"

/**
 * Dragging on the calendar grid with pointer events (mouse, pen and touch alike): a press that moves more than a few
 * pixels is a drag; the column under the pointer gives the date and its height the start, snapped to a quarter hour.
 * A press that does not move stays a click.
 */

export interface Target {
  readonly date: string
  /** Minutes since local midnight of the new start. */
  readonly minute: number
  /** The time block under the pointer, when there is one (dropping a booking on another time of a class). */
  readonly sessionId?: string
}

export interface Dragging<T> {
  readonly what: T
  readonly target: Target | undefined
}

const THRESHOLD = 6

/** What is under the pointer: the grid column (data-date) and a time block (data-session). */
const targetAt = (x: number, y: number, fromHour: number, grab: number): Target | undefined => {
  const under = document.elementsFromPoint(x, y)
  const column = under.find((e) => e instanceof HTMLElement && e.dataset.date !== undefined) as HTMLElement | undefined
  if (column === undefined) return undefined
  const block = under.find((e) => e instanceof HTMLElement && e.dataset.session !== undefined) as
    | HTMLElement
    | undefined
  const top = column.getBoundingClientRect().top
  const minute = Math.max(0, Math.min(1440 - 15, snap(fromHour * 60 + (y - top) / PX - grab)))
  return { date: column.dataset.date ?? "", minute, sessionId: block?.dataset.session }
}

export const useDrag = <T>({
  fromHour,
  start,
  drop
}: {
  fromHour: number
  /** Whether this may be dragged: a refusal said in words stops the drag. */
  start: (what: T) => string | undefined
  drop: (what: T, target: Target) => void
}) => {
  const [dragging, setDragging] = useState<Dragging<T> | undefined>(undefined)
  const [refused, setRefused] = useState<string | undefined>(undefined)
  // A drag just ended: the click that follows the release is not an activation.
  const moved = useRef(false)
  const cleanup = useRef<() => void>(() => undefined)
  useEffect(() => () => cleanup.current(), [])

  /** On pointerdown: `grab` is how many minutes below the thing's start it was taken (0 for a roster line). */
  const press = (e: PointerEvent, what: T, grab = 0) => {
    if (e.button !== 0) return
    moved.current = false
    const x0 = e.clientX
    const y0 = e.clientY
    let live = false
    let last: Target | undefined
    const move = (m: PointerEvent) => {
      if (!live && Math.hypot(m.clientX - x0, m.clientY - y0) < THRESHOLD) return
      if (!live) {
        live = true
        moved.current = true
        const no = start(what)
        setRefused(no)
        if (no !== undefined) return end()
      }
      m.preventDefault()
      last = targetAt(m.clientX, m.clientY, fromHour, grab)
      setDragging({ what, target: last })
    }
    const up = (u: PointerEvent) => {
      if (live) last = targetAt(u.clientX, u.clientY, fromHour, grab) ?? last
      const done = live && last !== undefined
      end()
      if (done && last !== undefined) drop(what, last)
    }
    const end = () => {
      removeEventListener("pointermove", move)
      removeEventListener("pointerup", up)
      removeEventListener("pointercancel", end)
      setDragging(undefined)
      // The click that follows the release comes before this: later clicks (and keys) are activations again.
      setTimeout(() => {
        moved.current = false
      }, 0)
    }
    cleanup.current = end
    addEventListener("pointermove", move)
    addEventListener("pointerup", up)
    addEventListener("pointercancel", end)
  }

  /** For a click handler: true (and forgotten) when the click ends a drag. */
  const wasDrag = () => {
    const m = moved.current
    moved.current = false
    return m
  }
  return { dragging, refused, clearRefused: () => setRefused(undefined), press, wasDrag }
}
