import type { PreparedStatement } from "../ports/Prepared.ts"

/** A prepared statement written with named parameters, and how an object of named values becomes its values. */
export interface NamedStatement<V> {
  readonly statement: PreparedStatement
  readonly values: (values: V) => ReadonlyArray<unknown>
}

/**
 * A prepared statement whose parameters are named where it is written: `build` gets one placeholder per name of V
 * (`$1`, `$2`... in the order the text first names them) and the statement's values come from an object of named
 * values, so no list is kept in step with the text by hand. A name the text never uses is no parameter (a placeholder
 * taken and left out of the text is an error, when the statement is made).
 */
export const namedStatement = <V extends object>(
  name: string,
  build: (p: { readonly [K in keyof V]-?: string }) => string
): NamedStatement<V> => {
  const order: Array<keyof V> = []
  const placeholders = new Proxy({} as { readonly [K in keyof V]-?: string }, {
    get: (_, key) => {
      const at = order.indexOf(key as keyof V)
      return `$${at < 0 ? order.push(key as keyof V) : at + 1}`
    }
  })
  const text = build(placeholders)
  const names = [...order]
  // A placeholder taken but not written into the text would be a parameter of no known type: refused at once.
  const unused = names.filter((_, i) => !new RegExp(String.raw`\$${i + 1}(?!\d)`).test(text))
  if (unused.length > 0) throw new Error(`${name}: ${unused.map(String).join(", ")} named but not in its text`)
  return { statement: { name, text }, values: (values) => names.map((key) => values[key]) }
}
