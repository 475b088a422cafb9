import { useRef, useState } from "preact/hooks"
import { api, Said } from "../api.ts"
import { dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, useConfirm } from "../ui.tsx"

interface Feed {
  id: string
  kind: "member" | "offering"
  user_id: string | null
  offering_id: string | null
  created_at: string
}
interface Made extends Feed {
  url: string
}

/** Whose calendar: the signed-in person's own member feed, or one offering's feed. */
export type FeedOf = { readonly kind: "me" } | { readonly kind: "offering"; readonly offeringId: string }

/** The signed-in person's user_id on this org's team (the session's member_id, not the person's own id). */
const myMemberId = (memberId: string | null) => {
  if (memberId === null) throw new Said("You are not on this team any more, so you have no calendar feed here.")
  return memberId
}

/**
 * A calendar feed for one member or one offering (feeds.*): whether it is on and since when; making one, its address
 * shown once with a Copy button and how to subscribe; a new address (the old one stops), and stopping it, each asked
 * once. Its own load: a feed that fails to load says so here and nowhere else on the screen.
 */
export const FeedBox = ({ of, title, what }: { of: FeedOf; title: string; what: string }) => {
  const { zone, session } = useConsole()
  const { data, error, reload } = useLoad(async () => {
    const query = of.kind === "me" ? { user_id: myMemberId(session.member_id) } : { offering_id: of.offeringId }
    const feeds = await api.get<{ data: Feed[] }>("/feeds", query)
    return { query, feeds: feeds.data.filter((f) => f.kind === (of.kind === "me" ? "member" : "offering")) }
  }, [of.kind === "me" ? "me" : of.offeringId, session.member_id])
  const [made, setMade] = useState<Made | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction(() => setDone(undefined))
  const confirm = useConfirm(act.busy)
  const id = `feed-${of.kind === "me" ? "me" : of.offeringId}`
  const shown = (f: Made, said: string) => (setMade(f), setDone(said), reload())
  const create = () =>
    act.run(
      () =>
        api.post<Made>(
          "/feeds",
          of.kind === "me"
            ? { kind: "member", ...(data?.query.user_id === undefined ? {} : { user_id: data.query.user_id }) }
            : { kind: "offering", offering_id: of.offeringId }
        ),
      (f) => shown(f, "Calendar feed made. Copy its address now: it is shown this once.")
    )
  const rotate = (f: Feed) =>
    confirm.ask({
      title: "Make a new address for this feed?",
      action: "Make a new address",
      keep: "Keep the old address",
      text: (
        <p>
          The address you have now stops working at once: calendars subscribed to it stop showing {what} until they
          subscribe again with the new address, which is shown this once.
        </p>
      ),
      run: () =>
        act.run(
          () => api.post<Made>(`/feeds/${f.id}/rotate`),
          (n) => shown(n, "New address made. The old one no longer works: copy this one now.")
        )
    })
  const stop = (f: Feed) =>
    confirm.ask({
      title: "Stop this calendar feed?",
      action: "Stop this feed",
      text: (
        <p>
          Its address stops working at once: Google, Apple or Outlook calendars subscribed to it no longer get {what}.
          You can make a new feed later; it has a new address.
        </p>
      ),
      run: () =>
        act.run(
          () => api.del(`/feeds/${f.id}`),
          () => (setMade(undefined), setDone("Calendar feed stopped: its address no longer works."), reload())
        )
    })
  const feeds = data?.feeds
  const several = (feeds?.length ?? 0) > 1
  return (
    <section class="panel feed" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p class="muted">
        {what[0].toUpperCase()}
        {what.slice(1)}, in Google, Apple or Outlook calendar, kept up to date. Anyone with its address can read it:
        keep it to yourself.
      </p>
      <Alert text={error ?? act.error} />
      <Done text={done} />
      {confirm.panel}
      {made === undefined ? null : <Address url={made.url} />}
      {feeds === undefined ? (
        error === undefined ? (
          <p class="muted">Loading…</p>
        ) : (
          <button type="button" class="secondary" onClick={reload}>
            Try again
          </button>
        )
      ) : feeds.length === 0 ? (
        <>
          <p>No calendar feed yet.</p>
          <button type="button" disabled={act.busy} onClick={create}>
            Make a calendar feed
          </button>
        </>
      ) : (
        <ul class="feeds">
          {feeds.map((f) => (
            <li key={f.id}>
              <p>
                Feed on since {dateTime(f.created_at, zone)}.
                {made?.id === f.id ? "" : " Its address was shown once, when it was made: make a new one to see it."}
              </p>
              <div class="actions">
                <button type="button" class="secondary" disabled={act.busy} onClick={() => rotate(f)}>
                  Make a new address
                  {several ? (
                    <span class="visually-hidden"> for the feed made {dateTime(f.created_at, zone)}</span>
                  ) : null}
                </button>
                <button type="button" class="danger" disabled={act.busy} onClick={() => stop(f)}>
                  Stop this feed
                  {several ? <span class="visually-hidden"> made {dateTime(f.created_at, zone)}</span> : null}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The new address, read-only, with Copy and one line on subscribing. */
const Address = ({ url }: { url: string }) => {
  const input = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<string | undefined>(undefined)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied("Copied.")
    } catch {
      input.current?.select()
      setCopied("Selected: copy it with Ctrl+C (⌘C on a Mac).")
    }
  }
  return (
    <div class="feed-address">
      <Field label="Calendar feed address (shown this once)">
        <input ref={input} type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </Field>
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        {copied === undefined ? null : (
          <span role="status" class="muted">
            {copied}
          </span>
        )}
      </div>
      <p class="muted">
        To subscribe, paste it in Google Calendar: Other calendars &gt; From URL; Apple Calendar: File &gt; New Calendar
        Subscription; Outlook: Add calendar &gt; Subscribe from web.
      </p>
    </div>
  )
}
