import { randomBytes } from "node:crypto"
import type { Question } from "../../schema/offering.ts"

interface QuestionInput {
  readonly id?: string | undefined
  readonly label: string
  readonly type: "text" | "yes_no" | "choice"
  readonly options?: ReadonlyArray<string> | undefined
  readonly required?: boolean | undefined
}

/** The whole list replaces the previous one; a kept id keeps its answers, a new question gets an id. */
export const normalizeQuestions = (input: ReadonlyArray<QuestionInput>): Question[] | { duplicate: string } => {
  const seen = new Set<string>()
  const out: Question[] = []
  for (const q of input) {
    const id = q.id ?? `q_${randomBytes(6).toString("base64url")}`
    if (seen.has(id)) return { duplicate: id }
    seen.add(id)
    out.push({
      id,
      label: q.label,
      type: q.type,
      required: q.required ?? false,
      ...(q.options ? { options: [...q.options] } : {})
    })
  }
  return out
}
