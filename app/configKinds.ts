import { Config, ConfigError, Either, Option } from "effect"
import { ENV, type SettingPath } from "./options.ts"

/**
 * The kinds of value a setting takes, read from its variable (app/options.ts names it) as people type them: spaces
 * around a value ignored, a blank value unset, numbers with `_` or `,` between thousands, flags as 1/0, true/false,
 * yes/no or on/off, names in any case. A value that will not do fails with one sentence naming the variable.
 */

const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))

/** The variable's value, trimmed; blank is unset. */
export const text = (path: SettingPath): Config.Config<Option.Option<string>> =>
  Config.string(ENV[path]).pipe(
    Config.option,
    Config.map(Option.map((s) => s.trim())),
    Config.map(Option.filter((s) => s !== ""))
  )

/** An optional value that `valid` accepts, else `message` (the variable's name is put before it). */
export const checked = (path: SettingPath, message: string, valid: (s: string) => boolean) =>
  text(path).pipe(
    Config.mapOrFail((o) =>
      Option.isSome(o) && !valid(o.value) ? invalid(`${ENV[path]} ${message}`) : Either.right(o)
    )
  )

/** An optional value that `problem` finds nothing wrong with; its answer, after the variable's name, when it does. */
export const checkedBy = (path: SettingPath, problem: (s: string) => string | undefined) =>
  text(path).pipe(
    Config.mapOrFail((o) => {
      const found = Option.isSome(o) ? problem(o.value) : undefined
      return found === undefined ? Either.right(o) : invalid(`${ENV[path]} ${found}`)
    })
  )

/** A string with a default. */
export const string = (path: SettingPath, fallback: string) =>
  text(path).pipe(Config.map(Option.getOrElse(() => fallback)))

/** A whole number from `min` to `max`, `fallback` when unset; `what` says what it counts ("a number of requests"). */
export const integer = (path: SettingPath, what: string, min: number, max: number, fallback: number, low?: string) =>
  optionalInteger(path, what, min, max, low).pipe(Config.map(Option.getOrElse(() => fallback)))

/** `low` names the lowest value when it means something ("0 (off)"). */
export const optionalInteger = (path: SettingPath, what: string, min: number, max: number, low?: string) =>
  text(path).pipe(
    Config.mapOrFail((o): Either.Either<Option.Option<number>, ConfigError.ConfigError> => {
      if (Option.isNone(o)) return Either.right(Option.none())
      const v = o.value
      const digits = /^\d{1,3}([_,]\d{3})+$/.test(v) || /^\d+(_\d+)+$/.test(v) ? v.replace(/[_,]/g, "") : v
      const n = /^\d+$/.test(digits) ? Number(digits) : Number.NaN
      return Number.isSafeInteger(n) && n >= min && n <= max
        ? Either.right(Option.some(n))
        : invalid(`${ENV[path]} must be ${what} from ${low ?? min} to ${max}, not "${o.value}"`)
    })
  )

const TRUE = ["1", "true", "yes", "on"]
const FALSE = ["0", "false", "no", "off"]

/** A yes or no. */
export const flag = (path: SettingPath, fallback: boolean) =>
  text(path).pipe(
    Config.mapOrFail((o) => {
      if (Option.isNone(o)) return Either.right(fallback)
      const v = o.value.toLowerCase()
      return TRUE.includes(v)
        ? Either.right(true)
        : FALSE.includes(v)
          ? Either.right(false)
          : invalid(`${ENV[path]} must be 1 or 0 (true or false), not "${o.value}"`)
    })
  )

/** One of a few names, in any case; `aliases` maps other spellings to them. */
export const choice = <const N extends string>(
  path: SettingPath,
  names: ReadonlyArray<N>,
  fallback: N,
  aliases: Readonly<Record<string, N>> = {}
) =>
  text(path).pipe(
    Config.mapOrFail((o) => {
      if (Option.isNone(o)) return Either.right(fallback)
      const v = o.value.toLowerCase()
      const name = aliases[v] ?? names.find((n) => n === v)
      return name !== undefined
        ? Either.right(name)
        : invalid(`${ENV[path]} must be one of ${[...names, ...Object.keys(aliases)].join(", ")}, not "${o.value}"`)
    })
  )

const HTTP = /^https?:\/\/[^\s/?#]+[^\s]*$/i

/** An http(s) URL, without trailing slashes. */
export const httpUrl = (path: SettingPath, example: string) =>
  checked(path, `must be an http(s) URL such as ${example}`, (u) => HTTP.test(u)).pipe(
    Config.map(Option.map((u) => u.replace(/\/+$/, "")))
  )

/** A public service's base URL, "off" for none. */
export const serviceUrl = (path: SettingPath, fallback: string) =>
  text(path).pipe(
    Config.mapOrFail((o): Either.Either<string | undefined, ConfigError.ConfigError> => {
      const u = Option.getOrElse(o, () => fallback)
      if (u.toLowerCase() === "off") return Either.right(undefined)
      return HTTP.test(u) ? Either.right(u.replace(/\/+$/, "")) : invalid(`${ENV[path]} must be an http(s) URL or off`)
    })
  )

/**
 * A configuration error as one plain line: the sentences of its failures, joined. Effect's own rendering
 * (`(Invalid data at : "…")`) is never shown.
 */
export const configProblem = (error: ConfigError.ConfigError): string => {
  const lines: Array<string> = []
  const walk = (e: ConfigError.ConfigError): void => {
    if (e._op === "And" || e._op === "Or") {
      walk(e.left)
      walk(e.right)
      return
    }
    const path = e.path.join(".")
    const message = e.message.replace(/\s+/g, " ").trim()
    lines.push(path !== "" && !message.includes(path) ? `${path}: ${message}` : message)
  }
  walk(error)
  return [...new Set(lines)].join("; ")
}
