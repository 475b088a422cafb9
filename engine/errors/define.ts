import type * as Cause from "effect/Cause"
import * as Schema from "effect/Schema"

/** The wire code of a tag: SoldOut -> sold_out. */
export const snakeCase = (tag: string) => tag.replace(/[A-Z]/g, (c, i) => (i === 0 ? "" : "_") + c.toLowerCase())

export type Fields<Tag extends string> = { readonly _tag: Schema.tag<Tag>; readonly message: typeof Schema.String }

/**
 * A domain error: a tagged class named for what happened, carrying its message. Its wire `code` is the snake_case of
 * its tag unless given (one code answered with two statuses is two classes). The transport gives each its status.
 */
/**
 * What a domain error class is: a tagged error class with its wire code, on the class (`SoldOut.code`) and on each
 * instance (`e.code`, next to `e.message`).
 */
export interface DomainErrorBase<Self, Tag extends string>
  extends Schema.Class<
    Self,
    Fields<Tag>,
    Schema.Struct.Encoded<Fields<Tag>>,
    never,
    Schema.Struct.Constructor<Omit<Fields<Tag>, "_tag">>,
    {},
    Cause.YieldableError & { readonly code: string }
  > {
  readonly _tag: Tag
  readonly code: string
}

export const DomainError =
  <Self>() =>
  <const Tag extends string>(tag: Tag, code: string = snakeCase(tag)): DomainErrorBase<Self, Tag> => {
    const Base = Schema.TaggedError<Self>()(tag, { message: Schema.String })
    Object.defineProperty(Base, "code", { value: code })
    Object.defineProperty((Base as unknown as { prototype: object }).prototype, "code", { get: () => code })
    return Base as unknown as DomainErrorBase<Self, Tag>
  }
