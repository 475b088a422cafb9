import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { useAction } from "../state.ts"
import { MAIL_KINDS, preview, unknownPlaceholders } from "../templates.ts"
import type { Org } from "../types.ts"
import { Alert, Done, Field, value } from "../ui.tsx"

/** The wording of one guest mail at a time, with a preview filled with sample values (shown as text). */
export const Templates = ({ org, saved }: { org: Org; saved: () => void }) => {
  const [kind, setKind] = useState(MAIL_KINDS[0])
  const current = org.mail_templates[kind] ?? {}
  const [subject, setSubject] = useState<string | undefined>(undefined)
  const [text, setText] = useState<string | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction()
  const s = subject ?? current.subject ?? ""
  const t = text ?? current.text ?? ""
  const unknown = unknownPlaceholders(`${s}\n${t}`)
  const save = (e: Event) => {
    e.preventDefault()
    const templates = { ...org.mail_templates }
    if (s === "" && t === "") delete templates[kind]
    else templates[kind] = { ...(s === "" ? {} : { subject: s }), ...(t === "" ? {} : { text: t }) }
    void act.run(
      () => api.patch("/org", { mail_templates: templates }),
      () => (setDone("Template saved."), saved())
    )
  }
  return (
    <form onSubmit={save} aria-labelledby="templates">
      <h2 id="templates">Mail templates</h2>
      <Field label="Mail">
        <select value={kind} onChange={(e) => (setKind(value(e)), setSubject(undefined), setText(undefined))}>
          {MAIL_KINDS.map((k) => (
            <option key={k} value={k}>
              {k.replace("_", " ")}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Subject (empty: the built-in one)">
        <input value={s} onInput={(e) => setSubject(value(e))} />
      </Field>
      <Field
        label="Text"
        hint="Placeholders: {{reference}}, {{offering}}, {{when}}, {{page_url}}, {{note}}"
        error={
          unknown.length === 0
            ? undefined
            : `No mail fills ${unknown.map((u) => `{{${u}}}`).join(", ")}: guests would see nothing there.`
        }
      >
        <textarea rows={5} value={t} onInput={(e) => setText(value(e))} />
      </Field>
      <section class="panel" aria-label="Preview">
        <h3>Preview</h3>
        <p>
          <strong>{preview(s || "(built-in subject)")}</strong>
        </p>
        <p class="body">{preview(t || "(built-in text)")}</p>
      </section>
      <Alert text={act.error} />
      <Done text={done} />
      <button type="submit" disabled={act.busy}>
        Save template
      </button>
    </form>
  )
}
