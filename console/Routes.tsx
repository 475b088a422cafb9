import type { ComponentChildren } from "preact"
import { BASE, match } from "./router.ts"
import { Account } from "./screens/Account.tsx"
import { Agenda } from "./screens/Agenda.tsx"
import { Booking } from "./screens/Booking.tsx"
import { Bookings } from "./screens/Bookings.tsx"
import { CalendarView } from "./screens/CalendarView.tsx"
import { Closures } from "./screens/Closures.tsx"
import { Developers } from "./screens/Developers.tsx"
import { Guest } from "./screens/Guest.tsx"
import { Guests } from "./screens/Guests.tsx"
import { Inbox } from "./screens/Inbox.tsx"
import { Money } from "./screens/Money.tsx"
import { NewBooking } from "./screens/NewBooking.tsx"
import { NewOffering, OfferingPage } from "./screens/OfferingPage.tsx"
import { Offerings } from "./screens/Offerings.tsx"
import { Reports } from "./screens/Reports.tsx"
import { Roster } from "./screens/Roster.tsx"
import { Settings } from "./screens/Settings.tsx"
import { Team } from "./screens/Team.tsx"
import { useConsole } from "./state.ts"
import { Title } from "./ui.tsx"

type Route = readonly [string, (p: Record<string, string>, search: string) => ComponentChildren, boolean?]

/** Each screen by its path below /dashboard; true marks an owner's screen. */
const ROUTES: ReadonlyArray<Route> = [
  ["/", (_, s) => <Agenda week={false} search={s} />],
  ["/week", (_, s) => <Agenda week search={s} />],
  ["/calendar", (_, s) => <CalendarView search={s} />],
  ["/closures", () => <Closures />, true],
  ["/times/:id", (p, s) => <Roster id={p.id} search={s} />],
  ["/bookings", (_, s) => <Bookings search={s} />],
  ["/bookings/new", () => <NewBooking />],
  ["/bookings/:id", (p) => <Booking id={p.id} />],
  ["/offerings", () => <Offerings />],
  ["/offerings/new", () => <NewOffering />, true],
  ["/offerings/:id", (p, s) => <OfferingPage id={p.id} search={s} />],
  ["/guests", (_, s) => <Guests search={s} />],
  ["/guests/:id", (p) => <Guest id={p.id} />],
  ["/messages", () => <Inbox />],
  ["/money", () => <Money />, true],
  ["/reports", () => <Reports />, true],
  ["/team", () => <Team />, true],
  ["/settings", () => <Settings />, true],
  ["/developers", () => <Developers />, true],
  ["/account", () => <Account />]
]

export const Routes = ({ path, search }: { path: string; search: string }) => {
  const { owner } = useConsole()
  for (const [pattern, screen, ownerOnly] of ROUTES) {
    const params = match(pattern, path)
    if (params === undefined) continue
    if (ownerOnly === true && !owner)
      return (
        <section>
          <Title>Owners only</Title>
          <p>This screen is for the organisation's owners. Ask an owner if you need something here.</p>
        </section>
      )
    return <>{screen(params, search)}</>
  }
  return (
    <section>
      <Title>No such page</Title>
      <p>
        Nothing is at this address in the console: it may be mistyped, or the link is old. Go to{" "}
        <a href={BASE}>Today</a> or pick a screen from the menu.
      </p>
    </section>
  )
}
