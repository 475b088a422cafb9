import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { EVENT_TYPES } from "../live.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, useConfirm, value } from "../ui.tsx"

interface Endpoint {
  id: string
  url: string
  events: string[]
  active: boolean
}
interface Delivery {
  event_id: number
  status: number | null
  duration_ms: number
  error: string | null
  at: string
}

/** Webhook endpoints: add (the signing secret shown once), the delivery log of each, redeliver, remove. */
export const Webhooks = () => {
  const { zone } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Endpoint[] }>("/webhooks").then((r) => r.data), [])
  const [url, setUrl] = useState("")
  const [open, setOpen] = useState<string | undefined>(undefined)
  const [log, setLog] = useState<Delivery[]>([])
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction()
  const confirm = useConfirm(act.busy)
  const show = (id: string) =>
    act.run(
      () => api.get<{ data: Delivery[] }>(`/webhooks/${id}/deliveries`),
      (r) => (setOpen(id), setLog(r.data))
    )
  const add = (e: Event) => {
    e.preventDefault()
    void act.run(
      () => api.post<{ secret: string }>("/webhooks", { url: url.trim(), events: [...EVENT_TYPES] }),
      (w) => (setDone(`Endpoint added. Its signing secret, shown this once: ${w.secret}`), setUrl(""), reload())
    )
  }
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">Webhook endpoints</h2>
      <Alert text={act.error} />
      <Done text={done} />
      {confirm.panel}
      <ul class="cards">
        {data?.map((w) => (
          <li key={w.id}>
            <code>{w.url}</code> {w.active ? "" : "(off)"}
            <div>
              <button type="button" class="link" onClick={() => show(w.id)}>
                Delivery log <span class="visually-hidden">of {w.url}</span>
              </button>
              <button
                type="button"
                class="link"
                onClick={() =>
                  confirm.ask({
                    title: `Remove the endpoint ${w.url}?`,
                    action: "Remove the endpoint",
                    text: (
                      <p>
                        Events stop being sent to it at once, and its delivery log goes. The events themselves stay
                        readable in the API (GET /events).
                      </p>
                    ),
                    run: () => act.run(() => api.del(`/webhooks/${w.id}`), reload)
                  })
                }
              >
                Remove… <span class="visually-hidden">{w.url}</span>
              </button>
            </div>
            {open === w.id ? (
              <ul>
                {log.length === 0 ? <li class="muted">Nothing delivered yet.</li> : null}
                {log.map((d) => (
                  <li key={`${d.event_id}-${d.at}`}>
                    #{d.event_id} {dateTime(d.at, zone)}: {d.status ?? d.error ?? "no answer"} ({d.duration_ms} ms){" "}
                    <button
                      type="button"
                      class="link"
                      onClick={() =>
                        act.run(
                          () => api.post(`/webhooks/${w.id}/redeliver`, { event_id: d.event_id }),
                          () => show(w.id)
                        )
                      }
                    >
                      Redeliver <span class="visually-hidden">event {d.event_id}</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={add} aria-label="New webhook endpoint">
        <Field label="Endpoint URL (https)">
          <input type="url" required value={url} onInput={(e) => setUrl(value(e))} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Add endpoint
        </button>
      </form>
    </section>
  )
}
