/**
 * An API refusal put beside the field it is about. The field is the error's `param` (its path in the body:
 * `duration_minutes`, `hours[1].start_time`) when the API gives one, else the path its message starts with
 * (`duration_minutes: Expected a number between 5 and 43200, actual 3`). The reason is said as a plain sentence.
 */

const PATH = /^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*)*): (.*)$/s

export interface FieldError {
  /** The API's path of the field, as given: `hours[1].start_time`. */
  readonly path: string
  /** A plain sentence for beside the field. */
  readonly text: string
}

/** The field an error is about and what to say there; undefined when it names no field. */
export const fieldError = (param: string | undefined, message: string): FieldError | undefined => {
  const parsed = PATH.exec(message)
  const path = param ?? parsed?.[1]
  if (path === undefined || path === "") return undefined
  const reason = parsed?.[2] ?? message
  return { path, text: plain(reason) }
}

const RULES: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [/between (-?[\d.]+) and (-?[\d.]+)/, (m) => `Type a number from ${m[1]} to ${m[2]}.`],
  [/greater than or equal to (-?[\d.]+)/, (m) => `Type ${m[1]} or more.`],
  [/less than or equal to (-?[\d.]+)/, (m) => `Type ${m[1]} or less.`],
  [/must be 1 to (\d+) characters/, (m) => `Required, at most ${m[1]} characters.`],
  [/must be (\d+) to (\d+) characters/, (m) => `Between ${m[1]} and ${m[2]} characters.`],
  [/must be at most (\d+) characters/, (m) => `At most ${m[1]} characters.`],
  [/at most (\d+) items?/, (m) => `At most ${m[1]}.`],
  [/at least (\d+) items?/, (m) => `At least ${m[1]}.`],
  [/end_time must be after start_time/, () => "The closing time must be after the opening time."],
  [/Expected an integer/, () => "Type a whole number."],
  [/Expected a number|Expected number/, () => "Type a number."],
  [/unknown field/, () => "Not a field this form can send."]
]

/** The reason in words a person reads: the schema's phrasing turned into a sentence, never a JSON dump. */
export const plain = (reason: string) => {
  for (const [re, say] of RULES) {
    const m = re.exec(reason)
    if (m !== null) return say(m)
  }
  if (/[{}[\]]/.test(reason)) return "This value is not accepted."
  const s = reason.trim().replace(/, actual .*$/s, "")
  return s === "" ? "This value is not accepted." : `${s[0].toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? "" : "."}`
}

/** The first index of a path (`hours[1].start_time` is 1), or undefined. */
export const indexOf = (path: string) => {
  const m = /\[(\d+)\]/.exec(path)
  return m === null ? undefined : Number(m[1])
}

/** A path's first name (`hours[1].start_time` is `hours`): which of the screen's fields it is. */
export const rootOf = (path: string) => path.split(/[.[]/)[0]

/** The path as the screen names it: `hours[1]` is the screen's "day 2" (rows count from 1). */
export const screenName = (path: string, row = "row") =>
  path.replace(/^[A-Za-z_]+\[(\d+)\].*$/, (_, n: string) => `${row} ${Number(n) + 1}`)
