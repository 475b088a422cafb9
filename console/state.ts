import { createContext } from "preact"
import { useCallback, useContext, useEffect, useState } from "preact/hooks"
import { ApiError, describe } from "./api.ts"
import { type FieldError, fieldError, indexOf, rootOf } from "./fieldErrors.ts"
import type { Session } from "./types.ts"

export interface Console {
  readonly session: Session
  readonly zone: string
  readonly currency: string
  readonly owner: boolean
  /** Bumped whenever the event stream tells of a change: screens reload what they show. */
  readonly live: number
  readonly refreshSession: () => Promise<void>
}

export const ConsoleContext = createContext<Console | undefined>(undefined)

export const useConsole = (): Console => {
  const c = useContext(ConsoleContext)
  if (c === undefined) throw new Error("outside the console")
  return c
}

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: string | undefined
  readonly reload: () => void
}

/** Loads what a screen shows, again when its inputs change or the org's events say something changed. */
export const useLoad = <T>(load: () => Promise<T>, deps: ReadonlyArray<unknown>): Loaded<T> => {
  const { live } = useConsole()
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [n, setN] = useState(0)
  const reload = useCallback(() => setN((x) => x + 1), [])
  useEffect(() => {
    let current = true
    load().then(
      (d) => current && (setData(d), setError(undefined)),
      (e) => current && setError(describe(e))
    )
    return () => {
      current = false
    }
  }, [...deps, live, n])
  return { data, error, reload }
}

/**
 * Runs an action from a button: busy while it runs, its error kept to show (and, for a 400 naming a field, that field
 * with a plain sentence to put beside it), then what to do after. `failed` runs on each refusal: a screen clears an
 * earlier green message there.
 */
export const useAction = (failed?: () => void) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  // The API's code of the last refusal (undefined when the server could not be reached): screens explain some codes.
  const [code, setCode] = useState<string | undefined>(undefined)
  const [field, setField] = useState<FieldError | undefined>(undefined)
  const run = async <T>(action: () => Promise<T>, after?: (t: T) => void) => {
    setBusy(true)
    setError(undefined)
    setCode(undefined)
    setField(undefined)
    try {
      const t = await action()
      after?.(t)
      return t
    } catch (e) {
      const at = e instanceof ApiError && e.status === 400 ? fieldError(e.param, e.message) : undefined
      setField(at)
      // Kept whole too: a screen that puts errors beside its fields shows `at`, any other shows this.
      setError(describe(e))
      setCode(e instanceof ApiError ? e.code : undefined)
      failed?.()
      return undefined
    } finally {
      setBusy(false)
    }
  }
  /** The sentence for the field named `root` (the path's first name: "hours" for `hours[1].start_time`). */
  const at = (root: string, index?: number) =>
    field !== undefined && rootOf(field.path) === root && (index === undefined || indexOf(field.path) === index)
      ? field.text
      : undefined
  const fail = (text: string) => {
    setError(text)
    setField(undefined)
    failed?.()
  }
  return { busy, error, code, field, at, run, setError: fail }
}
