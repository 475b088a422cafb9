import type { Question } from "../types.ts"
import { FieldError, value } from "../ui.tsx"

/** The most questions an offering asks (the API's limit). */
export const MAX_QUESTIONS = 6

/** The questions a guest answers when booking: a label, a type, options for a choice, required or not. */
export const Questions = ({
  list,
  change,
  error = () => undefined
}: {
  list: Question[]
  change: (q: Question[]) => void
  /** The API's refusal of the questions (all of them, or question `index`), to say beside them. */
  error?: (root: string, index?: number) => string | undefined
}) => {
  const set = (i: number, q: Partial<Question>) => change(list.map((x, j) => (j === i ? { ...x, ...q } : x)))
  return (
    <fieldset>
      <legend>Questions for the guest</legend>
      {list.length === 0 ? <p class="muted">None: guests give their name and email only.</p> : null}
      <FieldError text={list.some((_, i) => error("questions", i) !== undefined) ? undefined : error("questions")} />
      {list.map((q, i) => (
        <div class="question" key={q.id ?? i}>
          <label class="field">
            <span>Question {i + 1}</span>
            <input required maxLength={80} value={q.label} onInput={(e) => set(i, { label: value(e) })} />
          </label>
          <label class="field">
            <span>Answer type for question {i + 1}</span>
            <select value={q.type} onChange={(e) => set(i, { type: value(e) as Question["type"] })}>
              <option value="text">Text</option>
              <option value="yes_no">Yes or no</option>
              <option value="choice">One of a list</option>
            </select>
          </label>
          {q.type === "choice" ? (
            <label class="field">
              <span>Choices for question {i + 1}, one per line</span>
              <textarea
                rows={3}
                value={(q.options ?? []).join("\n")}
                onInput={(e) => set(i, { options: value(e).split("\n") })}
              />
            </label>
          ) : null}
          <label class="choice">
            <input
              type="checkbox"
              checked={q.required ?? false}
              onChange={(e) => set(i, { required: (e.currentTarget as HTMLInputElement).checked })}
            />{" "}
            Required
          </label>
          <FieldError text={error("questions", i)} />
          <button type="button" class="link" onClick={() => change(list.filter((_, j) => j !== i))}>
            Remove question {i + 1}
          </button>
        </div>
      ))}
      {list.length < MAX_QUESTIONS ? (
        <button
          type="button"
          class="secondary"
          onClick={() => change([...list, { label: "", type: "text", required: false }])}
        >
          Add a question
        </button>
      ) : (
        <p class="muted">{MAX_QUESTIONS} questions at most.</p>
      )}
    </fieldset>
  )
}

/** Questions as the API takes them: choices trimmed, empty ones dropped; no options for other types. */
export const questionsBody = (list: Question[]) =>
  list.map((q) => ({
    ...(q.id === undefined ? {} : { id: q.id }),
    label: q.label.trim(),
    type: q.type,
    required: q.required ?? false,
    ...(q.type === "choice" ? { options: (q.options ?? []).map((o) => o.trim()).filter((o) => o !== "") } : {})
  }))
