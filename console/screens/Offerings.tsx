import { api } from "../api.ts"
import { money } from "../format.ts"
import { BASE } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Offering } from "../types.ts"
import { Badge, Empty, Loading, Title } from "../ui.tsx"

const KIND = { class: "Class", appointment: "Appointment", rental: "Rental" } as const

export const Offerings = () => {
  const { currency, owner } = useConsole()
  const { data, error } = useLoad(() => api.get<{ data: Offering[] }>("/offerings").then((r) => r.data), [])
  return (
    <section>
      <Title
        actions={
          owner ? (
            <a class="button" href={`${BASE}/offerings/new`}>
              New offering
            </a>
          ) : undefined
        }
      >
        Offerings
      </Title>
      {data === undefined ? (
        <Loading error={error} />
      ) : data.length === 0 ? (
        <Empty>
          <p>No offerings yet: a class, an appointment or a rental is what guests book.</p>
          <p>
            {owner ? (
              <a href={`${BASE}/offerings/new`}>Create your first offering</a>
            ) : (
              "An owner of the organisation creates them."
            )}
          </p>
        </Empty>
      ) : (
        <ul class="cards">
          {data.map((o) => (
            <li key={o.id}>
              <a href={`${BASE}/offerings/${o.id}`}>
                <strong>{o.name}</strong>
              </a>
              <div class="muted">
                {KIND[o.kind]} · {o.duration_minutes} min ·{" "}
                {o.price_cents === 0 ? "free" : money(o.price_cents, currency)}
              </div>
              {o.active ? null : <Badge tone="warn">paused</Badge>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
