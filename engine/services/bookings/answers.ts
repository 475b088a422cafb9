import { Effect } from "effect"
import { InvalidAnswers } from "../../errors/index.ts"
import { charsWithin } from "../../schema/common.ts"
import type { Question } from "../../schema/offering.ts"

/** Answers keyed by question id: text for text (a choice's option as listed), true/false for yes_no. */
export const checkAnswers = (questions: ReadonlyArray<Question>, answers: Readonly<Record<string, string | boolean>>) =>
  Effect.gen(function* () {
    const byId = new Map(questions.map((q) => [q.id, q]))
    for (const [id, value] of Object.entries(answers)) {
      const q = byId.get(id)
      if (q === undefined) return yield* new InvalidAnswers({ message: `answers.${id}: no such question` })
      const ok =
        q.type === "yes_no"
          ? typeof value === "boolean"
          : q.type === "choice"
            ? typeof value === "string" && (q.options ?? []).includes(value)
            : typeof value === "string" && value.trim().length > 0 && charsWithin(value, 1, 1000)
      if (!ok) {
        const expected =
          q.type === "yes_no"
            ? "true or false"
            : q.type === "choice"
              ? `one of ${(q.options ?? []).join(", ")}`
              : "text up to 1000 characters"
        return yield* new InvalidAnswers({ message: `answers.${id}: expected ${expected}` })
      }
    }
    const missing = questions.find((q) => q.required && !(q.id in answers))
    if (missing)
      return yield* new InvalidAnswers({ message: `answers.${missing.id}: "${missing.label}" must be answered` })
  })
