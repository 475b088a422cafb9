import { Schema } from "effect"

/** The wire code of a tag: SoldOut -> sold_out. */
export const snakeCase = (tag: string) => tag.replace(/[A-Z]/g, (c, i) => (i === 0 ? "" : "_") + c.toLowerCase())

type Fields<Tag extends string> = { readonly _tag: Schema.tag<Tag>; readonly message: typeof Schema.String }

/**
 * A domain error: a tagged class named for what happened, carrying its message. Its wire `code` is the snake_case of
 * its tag unless given (one code answered with two statuses is two classes). The transport gives each its status.
 */
export const DomainError =
  <Self>() =>
  <const Tag extends string>(tag: Tag, code: string = snakeCase(tag)) => {
    const Base = Schema.TaggedError<Self>()(tag, { message: Schema.String }) as unknown as Schema.TaggedErrorClass<
      Self,
      Tag,
      Fields<Tag>
    >
    return class extends Base {
      static readonly code = code
      get code() {
        return code
      }
    }
  }
