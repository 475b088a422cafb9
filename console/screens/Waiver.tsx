import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Confirm, Done, Field, value } from "../ui.tsx"

interface WaiverText {
  text: string | null
  version: number
}

/** The waiver guests sign (PUT /waiver: each save a new version), with a preview of its signing page. */
export const Waiver = () => {
  const { zone } = useConsole()
  const { data, reload } = useLoad(() => api.get<WaiverText>("/waiver"), [])
  const [text, setText] = useState<string | undefined>(undefined)
  const [removing, setRemoving] = useState(false)
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction()
  if (data === undefined) return null
  const t = text ?? data.text ?? ""
  const put = (body: string | null) =>
    act.run(
      () => api.put<WaiverText>("/waiver", { text: body }),
      (w) => (
        setDone(w.text === null ? "Waiver removed." : `Saved as version ${w.version}.`),
        setText(undefined),
        setRemoving(false),
        reload()
      )
    )
  const save = (e: Event) => {
    e.preventDefault()
    if (t.trim() === "") return act.setError("Write the waiver's text first.")
    void put(t)
  }
  return (
    <form onSubmit={save} aria-labelledby="waiver">
      <h2 id="waiver">Waiver</h2>
      <p class="muted">
        Offerings marked "Guests sign the waiver" send each guest a link to sign it.{" "}
        {data.text === null ? "There is no waiver yet." : `This is version ${data.version}; saving makes a new one.`}
      </p>
      <Field label="Waiver text" hint="Signatures keep the version they accepted.">
        <textarea rows={6} maxLength={20000} value={t} onInput={(e) => setText(value(e))} />
      </Field>
      <section class="panel signing" aria-label="Preview of the signing page">
        <h3>Preview: what a guest sees at their link</h3>
        <p class="muted">Waiver for Morning class · Booking ABC123, {dateTime(new Date().toISOString(), zone)}</p>
        {t.trim() === "" ? (
          <p>The waiver text is not ready yet. Come back to this link later.</p>
        ) : (
          <>
            <h4>Waiver, version {t === (data.text ?? "") ? data.version : data.version + 1}</h4>
            <p class="body">{t}</p>
            <p class="muted">
              Then: the full name of the person signing, a box to tick "I have read the waiver above and accept it", and
              the button "Sign the waiver".
            </p>
          </>
        )}
      </section>
      <Alert text={act.error} />
      <Done text={done} />
      <div class="actions wrap">
        <button type="submit" disabled={act.busy}>
          Save waiver
        </button>
        {data.text === null ? null : (
          <button type="button" class="secondary" onClick={() => setRemoving(true)}>
            Remove the waiver…
          </button>
        )}
      </div>
      {removing ? (
        <Confirm
          title="Remove the waiver?"
          action="Remove the waiver"
          keep="Keep it"
          busy={act.busy}
          confirm={() => void put(null)}
          cancel={() => setRemoving(false)}
        >
          <p>
            Guests opening a waiver link will read that it is not ready, and offerings that ask for a waiver cannot be
            signed as they are booked, until you write one again. Signatures already given stay on record.
          </p>
        </Confirm>
      ) : null}
    </form>
  )
}
