import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { EventRow } from "../types.ts"
import { Alert, Done, Field, Title, useConfirm, value } from "../ui.tsx"
import { TestClock } from "./TestClock.tsx"
import { Webhooks } from "./Webhooks.tsx"

interface Key {
  id: string
  prefix: string
  name: string | null
  kind: string
  role: string
  created_at: string
  revoked_at: string | null
}
interface App {
  id: string
  client_name: string
  redirect_uris: string[]
  revoked_at: string | null
}

/** API keys (a new key shown once), webhook endpoints, the events feed, OAuth apps, the test clock when it is on. */
export const Developers = () => {
  const { zone } = useConsole()
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Key[] }>("/api_keys").then((r) => r.data),
        api.get<{ data: App[] }>("/oauth_apps").then((r) => r.data),
        api.get<{ data: EventRow[] }>("/events", { order: "desc", limit: "30" }).then((r) => r.data),
        api.get<{ data: Array<{ api_key_id: string | null; active: boolean }> }>("/webhooks").then((r) => r.data)
      ]),
    []
  )
  const [form, setForm] = useState({ name: "", kind: "secret" })
  const [made, setMade] = useState<string | undefined>(undefined)
  const act = useAction()
  const confirm = useConfirm(act.busy)
  const hooksOf = (k: Key) => data?.[3].filter((w) => w.api_key_id === k.id && w.active).length ?? 0
  const revokeKey = (k: Key) =>
    confirm.ask({
      title: `Revoke the key ${k.name ?? `${k.prefix}…`}?`,
      action: "Revoke the key",
      text: <p>{keyStops(k, hooksOf(k))} This cannot be undone: a new key has a new secret.</p>,
      run: () => act.run(() => api.del(`/api_keys/${k.id}`), reload)
    })
  const revokeApp = (a: App) =>
    confirm.ask({
      title: `Revoke ${a.client_name}?`,
      action: `Revoke ${a.client_name}`,
      text: (
        <p>
          The app loses its access to this organisation at once: its tokens stop working. It must be approved again.
        </p>
      ),
      run: () => act.run(() => api.del(`/oauth_apps/${a.id}`), reload)
    })
  const create = (e: Event) => {
    e.preventDefault()
    void act.run(
      () =>
        api.post<{ key: string }>("/api_keys", { kind: form.kind, ...(form.name ? { name: form.name.trim() } : {}) }),
      (k) => (setMade(k.key), setForm({ ...form, name: "" }), reload())
    )
  }
  return (
    <section>
      <Title>Developers</Title>
      <Alert text={act.error} />
      {confirm.panel}
      <h2>API keys</h2>
      {made === undefined ? null : <Done text={`Your new key, shown this once (copy it now): ${made}`} />}
      <ul>
        {data?.[0]
          .filter((k) => k.revoked_at === null)
          .map((k) => (
            <li key={k.id}>
              <code>{k.prefix}…</code> {k.name}{" "}
              <span class="muted">
                ({k.kind}, {k.role})
              </span>{" "}
              <button type="button" class="link" onClick={() => revokeKey(k)}>
                Revoke… <span class="visually-hidden">{k.name ?? k.prefix}</span>
              </button>
            </li>
          ))}
      </ul>
      <form class="inline" onSubmit={create} aria-label="New API key">
        <Field label="Name">
          <input value={form.name} onInput={(e) => setForm({ ...form, name: value(e) })} />
        </Field>
        <Field label="Kind">
          <select value={form.kind} onChange={(e) => setForm({ ...form, kind: value(e) })}>
            <option value="secret">Secret (server to server)</option>
            <option value="publishable">Publishable (the widget)</option>
            <option value="reseller">Reseller (OCTO)</option>
          </select>
        </Field>
        <button type="submit" disabled={act.busy}>
          Create key
        </button>
      </form>
      <Webhooks />
      <h2>OAuth apps</h2>
      {data?.[1].length === 0 ? <p class="muted">No app has been approved.</p> : null}
      <ul>
        {data?.[1].map((a) => (
          <li key={a.id}>
            {a.client_name} {a.revoked_at !== null ? "(revoked)" : ""}{" "}
            {a.revoked_at === null ? (
              <button type="button" class="link" onClick={() => revokeApp(a)}>
                Revoke… <span class="visually-hidden">{a.client_name}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <TestClock onMoved={reload} />
      <h2>Latest events</h2>
      <ol class="history">
        {data?.[2].map((e) => (
          <li key={e.id}>
            <span class="muted">
              #{e.id} {dateTime(e.created_at, zone)}
            </span>{" "}
            <code>{e.type}</code>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** What stops when a key is revoked, by its kind. */
const keyStops = (k: Key, hooks: number) =>
  k.kind === "publishable"
    ? "Bookings through it stop at once: a booking widget on a website that uses this key can no longer show times or take bookings."
    : k.kind === "reseller"
      ? "The reseller using it can no longer see availability or book through OCTO."
      : `Every integration, script or assistant using it is refused at once${
          hooks > 0
            ? `, and the ${hooks === 1 ? "webhook endpoint it made switches" : `${hooks} webhook endpoints it made switch`} off`
            : ""
        }.`
